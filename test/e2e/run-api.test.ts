import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RunEvent } from "../../src/schema/run-api/event.ts";
import { RunResult } from "../../src/schema/run-api/result.ts";
import { RunSnapshot } from "../../src/schema/run-api/snapshot.ts";
import { RUN_API_VERSION } from "../../src/schema/run-api/version.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";
import { eventKinds, validate } from "../report/json-validate.ts";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

/**
 * The run API from the outside: what the compiled binary prints for a whole sim run (its
 * --ci --json lines and status --json) is exactly what the zod schemas say, nothing missing and
 * nothing extra, and validates against every published version's JSON Schema (an event of a
 * kind added after a version is skipped by that version's consumers).
 */
let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "run-api");
const versions = readdirSync(FIXTURES).filter((n) => /^v\d+$/.test(n));
const published = (file: string) => versions.map((v) => ({ v, schema: JSON.parse(readFileSync(join(FIXTURES, v, file), "utf8")) }));
/** An older version's consumer meets enum values added after it (docs/run-api.md): they pass its check. */
const older = (v: string) => ({ laterValues: v !== `v${RUN_API_VERSION}` });

test("a run with a failing review: every --json line and status --json are the run API, in every published version", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const repo = join(makeTmpDir(), "repo");
  const r = await runBinary(bin, ["demo", "--ci", "--json", "--keep-session", "--dir", repo, "--scenario", "review_fail_once,reviewers=logic+quality"], {
    socket,
  });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const lines = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
  // the result line, then the demo's own notice naming its repository (every line is JSON)
  const res = lines.find((l) => l.kind === "result");
  expect(RunResult.parse(res)).toEqual(res);
  for (const { v, schema } of published("run-result.schema.json")) expect({ v, problems: validate(schema, res, "$", older(v)) }).toEqual({ v, problems: [] });
  const evs = lines.filter((l) => l !== res);
  for (const e of evs) expect(RunEvent.parse(e)).toEqual(e);
  // a version's consumer skips the kinds added after it (docs/run-api.md); every kind it knows validates
  for (const { v, schema } of published("run-event.schema.json")) {
    const known = eventKinds(schema);
    for (const e of evs.filter((e) => known.has(e.kind)))
      expect({ v, kind: e.kind, problems: validate(schema, e, "$", older(v)) }).toEqual({ v, kind: e.kind, problems: [] });
  }
  const verdicts = evs.filter((e) => e.kind === "review_verdict").map((e) => `${e.reviewer}:${e.verdict}:${e.round}`);
  expect(verdicts.sort()).toEqual(["reviewer_logic:fail:1", "reviewer_logic:pass:2", "reviewer_quality:pass:1", "reviewer_quality:pass:2"]);
  expect(evs.filter((e) => e.kind === "committed").map((e) => e.commit)).toEqual([res.commit]);

  const status = await runBinary(bin, ["status", res.session, "--json"], { socket, cwd: repo });
  expect(status.code).toBe(0);
  const snap = JSON.parse(status.stdout);
  expect(RunSnapshot.parse(snap)).toEqual(snap);
  for (const { v, schema } of published("run-snapshot.schema.json"))
    expect({ v, problems: validate(schema, snap, "$", older(v)) }).toEqual({ v, problems: [] });
  expect(snap).toMatchObject({ id: res.session, phase: "done", commit_hash: res.commit, review_iteration: 1, live: false, waiting_for: [] });
  expect(snap.stages.every((s: { state: string }) => s.state === "done")).toBe(true);
  expect(snap.timeline.map((t: { phase: string }) => t.phase)).toEqual(evs.filter((e) => e.kind === "phase").map((e) => e.phase));
}, 180_000);

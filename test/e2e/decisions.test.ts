import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { jsonEvents, readState, sessionDir } from "../fault/harness.ts";
import { git, isolatedBinary, killTmuxServer, runBinary } from "./harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";

/**
 * Decision files in headless runs that wait for one (`skip_final_approval: false` set in a
 * config file): the path is printed once (#11.4); a decision written before the run reaches
 * completing is picked up there (#18.18, it waited forever); a rejected decision is moved
 * aside, named in the error, and the next resume asks again (#17.4, every resume failed).
 */
let bin: string;
const track = { sockets: [] as string[], dirs: [] as string[] };
beforeAll(() => {
  bin = isolatedBinary();
  track.dirs.push(join(bin, ".."));
});
afterAll(() => {
  track.sockets.forEach(killTmuxServer);
  track.dirs.forEach(removeDir);
});

function waitingDemo(thinkMs = 0) {
  const extra = join(track.dirs.at(-1)!, `approval-${track.sockets.length}.yaml`);
  writeFileSync(extra, stringify({ defaults: { completion: { skip_final_approval: false } } }));
  return startSlowDemo(bin, { thinkMs, extra: ["--config", extra], track });
}

const waiting = (repo: string) =>
  waitFor(
    "the run to wait for a decision",
    () => {
      const d = sessionDir(repo);
      const s = d ? readState(d) : null;
      return s?.phase === "completing" && s.awaiting_decision ? d : null;
    },
    { timeoutMs: 60_000, intervalMs: 20 },
  );

const approve = (dir: string, approval: object = { action: "approve", exclude_files: [] }) =>
  writeFileSync(join(dir, "08_completion/approval.json"), JSON.stringify(approval));

test("headless and waiting: the decision file's path is printed once; writing it commits", async () => {
  const demo = waitingDemo();
  const dir = await waiting(demo.repo);
  approve(dir);
  const r = await demo.done;
  expect(r.code).toBe(0);
  const lines = jsonEvents(r.stdout).filter((e) => e.kind === "awaiting_decision");
  expect(lines).toEqual([
    { kind: "awaiting_decision", approval: join(dir, "08_completion/approval.json"), changes: join(dir, "08_completion/changes.md"), at: expect.any(String) },
  ]);
  expect(readState(dir)).toMatchObject({ phase: "done" });
}, 120_000);

test("an approval written before the run reaches completing is picked up there", async () => {
  const demo = waitingDemo(250);
  const dir = await waitForPhase(demo.repo, "implementing");
  approve(dir, { action: "approve", exclude_files: [], commit_message: "feat: greeting, approved early" });
  const r = await Promise.race([demo.done, Bun.sleep(60_000).then(() => null)]);
  if (!r) demo.proc.kill("SIGTERM");
  expect(r?.code).toBe(0);
  const result = jsonEvents(r!.stdout).find((e) => e.kind === "result");
  expect(git(demo.repo, "log", "-1", "--format=%s", result.branch)).toBe("feat: greeting, approved early");
}, 120_000);

test("a rejected approval is moved aside and named; resume asks again and the next decision commits", async () => {
  const demo = waitingDemo();
  const dir = await waiting(demo.repo);
  const bad = { action: "approve", exclude_files: ["../outside.txt"] };
  approve(dir, bad);
  const r = await demo.done;
  expect(r.code).toBe(1);
  const aside = join(dir, "08_completion/approval.rejected-1.json");
  const cause = readState(dir).interruption_cause;
  expect(cause).toContain('exclude entry "../outside.txt" points outside the repository');
  expect(cause).toContain(`08_completion/approval.json was moved to ${aside}`);
  expect(jsonEvents(r.stdout).find((e) => e.kind === "result").cause).toBe(cause);
  expect(JSON.parse(readFileSync(aside, "utf8"))).toEqual(bad);
  expect(existsSync(join(dir, "08_completion/approval.json"))).toBe(false);

  const resumed = runBinary(bin, ["resume", "--ci", "--json"], { cwd: demo.repo, socket: demo.socket });
  await waitFor(
    "the resumed run to wait again",
    () => {
      const s = readState(dir);
      return s.phase === "completing" && s.awaiting_decision && s.history.at(-1).event === "resumed";
    },
    { timeoutMs: 60_000, intervalMs: 20 },
  );
  approve(dir);
  const again = await resumed;
  expect(again.code).toBe(0);
  expect(jsonEvents(again.stdout).filter((e) => e.kind === "awaiting_decision")).toHaveLength(1);
  expect(readState(dir)).toMatchObject({ phase: "done" });
}, 180_000);

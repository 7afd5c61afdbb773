import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { RUN_API_SCHEMAS, runApiSchemaText, type RunApiSchemaFile } from "../../src/report/json-schema.ts";
import { events } from "../../src/report/events.ts";
import { RunEvent } from "../../src/schema/run-api/event.ts";
import { result } from "../../src/report/result.ts";
import { snapshot } from "../../src/report/snapshot.ts";
import { RunSnapshot } from "../../src/schema/run-api/snapshot.ts";
import { RUN_API_VERSION } from "../../src/schema/run-api/version.ts";
import { State } from "../../src/schema/state.ts";
import { RuntimeState } from "../../src/schema/runtime.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";
import { compatProblems } from "./schema-compat.ts";
import { eventKinds, validate } from "./json-validate.ts";

/**
 * The run API's contract (DESIGN rule 13): fields are added, never renamed, removed or retyped.
 * Each published version's JSON Schemas are frozen in test/fixtures/run-api/v<N>/; what the code
 * generates today must be compatible with every one of them, and what it derives from real
 * session folders (sim runs, test/fixtures/run-api/sessions/) must validate against each.
 */
const FIXTURES = join(REPO_ROOT, "test", "fixtures", "run-api");
const FILES = Object.keys(RUN_API_SCHEMAS) as RunApiSchemaFile[];
const versions = readdirSync(FIXTURES)
  .filter((n) => /^v\d+$/.test(n))
  .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
const frozen = (v: string, f: RunApiSchemaFile) => JSON.parse(readFileSync(join(FIXTURES, v, f), "utf8"));
const current = (f: RunApiSchemaFile) => JSON.parse(runApiSchemaText(f));
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));
/** An older version's consumer meets enum values added after it (docs/run-api.md): they pass its check. */
const older = (v: string) => ({ laterValues: v !== `v${RUN_API_VERSION}` });

/** Real session folders a sim run left: state.json (and runtime_state.json when it had one). */
const sessions = readdirSync(join(FIXTURES, "sessions"))
  .sort()
  .map((name) => {
    const dir = join(FIXTURES, "sessions", name);
    const runtime = join(dir, "runtime_state.json");
    return {
      name,
      state: State.parse(JSON.parse(readFileSync(join(dir, "state.json"), "utf8"))),
      runtime: existsSync(runtime) ? RuntimeState.parse(JSON.parse(readFileSync(runtime, "utf8"))) : undefined,
    };
  });

describe("the run API's published schemas", () => {
  test("assets/run-*.schema.json are current (run: npm run schema)", () => {
    for (const f of FILES) expect(readFileSync(join(REPO_ROOT, "assets", f), "utf8")).toBe(runApiSchemaText(f));
  });

  test(`run API v${RUN_API_VERSION} is frozen as it is generated (a changed schema needs a new RUN_API_VERSION, then npm run schema)`, () => {
    expect(versions.at(-1)).toBe(`v${RUN_API_VERSION}`);
    for (const f of FILES) expect(readFileSync(join(FIXTURES, `v${RUN_API_VERSION}`, f), "utf8")).toBe(runApiSchemaText(f));
  });

  test("today's schemas keep every field, variant and value of every published version, with a compatible type", () => {
    for (const v of versions)
      for (const f of FILES) expect({ version: v, file: f, problems: compatProblems(frozen(v, f), current(f)) }).toEqual({ version: v, file: f, problems: [] });
  });

  test("the schemas are open: a consumer of this version accepts the fields a later one adds", () => {
    for (const f of FILES) expect(runApiSchemaText(f)).not.toContain('"additionalProperties": false');
  });
});

describe("what real sessions derive validates against every published version", () => {
  test(`${sessions.length} sim sessions (${sessions.map((s) => s.name).join(", ")}): snapshot, events and result`, () => {
    expect(sessions.length).toBeGreaterThanOrEqual(4);
    for (const s of sessions) {
      for (const live of [true, false]) {
        const snap = clone(
          snapshot({
            dir: s.state.feature_dir,
            state: s.state,
            runtime: s.runtime,
            id: s.name,
            live,
            toolEvents: 12,
            now: Date.parse(s.state.updated_at) + 60_000,
          }),
        );
        expect(RunSnapshot.parse(snap)).toEqual(snap);
        const evs = clone(events(null, RunSnapshot.parse(snap)));
        expect(evs.length).toBeGreaterThan(0);
        const res = clone(result({ outcome: s.state.phase === "done" ? "success" : "failed", exitCode: s.state.phase === "done" ? 0 : 1, state: s.state }));
        for (const v of versions) {
          expect({ session: s.name, version: v, problems: validate(frozen(v, "run-snapshot.schema.json"), snap, "$", older(v)) }).toEqual({
            session: s.name,
            version: v,
            problems: [],
          });
          const known = eventKinds(frozen(v, "run-event.schema.json"));
          for (const e of evs.filter((e) => known.has(e.kind)))
            expect({ session: s.name, version: v, event: e.kind, problems: validate(frozen(v, "run-event.schema.json"), e, "$", older(v)) }).toEqual({
              session: s.name,
              version: v,
              event: e.kind,
              problems: [],
            });
          expect({ session: s.name, version: v, problems: validate(frozen(v, "run-result.schema.json"), res, "$", older(v)) }).toEqual({
            session: s.name,
            version: v,
            problems: [],
          });
        }
      }
    }
  });

  test("the sessions cover what a dashboard shows: working agents, a decision to make, a fix round, a failed run", () => {
    const snaps = sessions.map((s) =>
      snapshot({ dir: s.state.feature_dir, state: s.state, runtime: s.runtime, id: s.name, live: true, toolEvents: 0, now: Date.parse(s.state.updated_at) }),
    );
    expect(snaps.some((s) => s.agents.some((a) => a.status === "working"))).toBe(true);
    expect(snaps.some((s) => s.waiting_for.some((w) => w.kind === "decision"))).toBe(true);
    expect(snaps.some((s) => s.review_iteration > 0 && s.phase === "done")).toBe(true);
    expect(snaps.some((s) => s.phase === "failed" && s.review_loop_cap !== null)).toBe(true);
  });
});

describe("the contract's checkers catch what they are for", () => {
  const snapshotSchema = () => current("run-snapshot.schema.json");

  test("a renamed field (zod: branch → branch_name) fails the compatibility check and the validation", () => {
    const renamed = RunSnapshot.omit({ branch: true }).extend({ branch_name: z.string().nullable() });
    const next = JSON.parse(JSON.stringify(z.toJSONSchema(renamed, { io: "output" })));
    expect(compatProblems(snapshotSchema(), next)).toContain("$.branch: removed (a field is never renamed or removed)");
    const { branch, ...rest } = snapshot({ dir: "/d", state: sessions[0]!.state, id: "s", live: false, toolEvents: 0, now: 0 });
    expect(validate(snapshotSchema(), { ...rest, branch_name: branch })).toContain("$.branch: missing");
  });

  test("a retyped field, a nested one, a removed event kind, a removed enum value, a field made optional: each is named", () => {
    const s = snapshotSchema();
    const retyped = clone(s);
    retyped.properties.tool_events = { type: "string" };
    expect(compatProblems(s, retyped)).toEqual(["$.tool_events: retyped: it can now be string, was integer"]);
    const nested = clone(s);
    nested.properties.agents.items.properties.restarts = { type: ["integer", "null"] };
    expect(compatProblems(s, nested)).toEqual(["$.agents[].restarts: retyped: it can now be null, was integer"]);
    const optional = clone(s);
    optional.required = optional.required.filter((k: string) => k !== "phase");
    expect(compatProblems(s, optional)).toEqual(["$.phase: no longer always present"]);
    const value = clone(s);
    value.properties.phase.enum = value.properties.phase.enum.filter((p: string) => p !== "fixing");
    expect(compatProblems(s, value)).toEqual(['$.phase: the value "fixing" was removed']);
    const ev = current("run-event.schema.json");
    const fewer = clone(ev);
    fewer.oneOf = fewer.oneOf.filter((v: { properties: { kind: { const: string } } }) => v.properties.kind.const !== "agent_stuck");
    expect(compatProblems(ev, fewer)).toEqual(['$: the variant kind "agent_stuck" was removed']);
  });

  test("added fields, event kinds and enum values are compatible", () => {
    const s = snapshotSchema();
    const more = clone(s);
    more.properties.gates = { type: "array", items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };
    more.required.push("gates");
    more.properties.phase.enum.push("checking");
    expect(compatProblems(s, more)).toEqual([]);
    const ev = current("run-event.schema.json");
    const kinds = clone(ev);
    kinds.oneOf.push({ type: "object", properties: { kind: { type: "string", const: "check_finished" } }, required: ["kind"] });
    expect(compatProblems(ev, kinds)).toEqual([]);
  });

  test("a keyword the checkers do not know is an error, not a pass", () => {
    expect(() => compatProblems({ type: "object", patternProperties: {} }, { type: "object" })).toThrow("patternProperties");
    expect(() => validate({ $ref: "#/x" }, 1)).toThrow("$ref");
  });
});

test("the validator: a value outside an enum fails, unless it is checked for an older version's consumer", async () => {
  const schema = { type: "object", properties: { phase: { type: "string", enum: ["planning"] } }, required: ["phase"] };
  expect(validate(schema, { phase: "checking" })).toEqual(['$.phase: "checking" is not one of ["planning"]']);
  expect(validate(schema, { phase: "checking" }, "$", { laterValues: true })).toEqual([]);
  expect(validate(schema, { phase: 3 }, "$", { laterValues: true })).toEqual(["$.phase: expected string, got 3"]);
});

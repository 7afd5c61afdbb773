import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import type { Phase, Role, ToolName } from "../../src/schema/catalog.ts";
import { ToolEventLine, ToolPayloads } from "../../src/schema/tool-events.ts";
import { validDone, validPlan } from "../artifacts/fixtures.ts";
import { connect, makeFixture, readEvents, startEndpoint, textOf, write, type Connected, type Endpoint, type Fixture } from "./harness.ts";

let fx: Fixture;
let ep: Endpoint;
let open: Connected[] = [];
beforeEach(async () => {
  fx = await makeFixture();
  ep = startEndpoint(fx);
});
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
  ep.stop();
  fx.cleanup();
});
const conn = async (role: Role) => {
  const c = await connect(ep, role, { fx });
  open.push(c);
  return c.client;
};

/** The snapshot the endpoint keeps of the exact bytes it validated (content-addressed). */
const snap = (text: string, ext: string) => {
  const sha256 = createHash("sha256").update(text).digest("hex");
  return { path: `.runtime/snapshots/${sha256}.${ext}`, sha256 };
};
const PLAN = YAML.stringify(validPlan());
const REVIEW = YAML.stringify({ verdict: "fail", summary: "s", findings: [{ issue: "i", recommendation: "r" }] });
const DONE2 = JSON.stringify(validDone({ subplan_index: 2, files_created: ["src/new.ts"], files_modified: ["src/app.ts"] }));

type Case = {
  tool: ToolName;
  role: Role;
  phase: Phase;
  args: Record<string, unknown>;
  files?: Record<string, string>;
  work?: () => void;
  payload: unknown;
  reply: string;
};

const CASES: Case[] = [
  { tool: "submit_pm_done", role: "product-manager", phase: "product_management", args: {}, payload: {}, reply: "Product management recorded as done." },
  {
    tool: "submit_architecture",
    role: "architect",
    phase: "architecting",
    args: { reviewers: ["reviewer_logic", "reviewer_expert", "reviewer_logic"] },
    files: { "02_architecting/architecture.md": "# Architecture\n" },
    payload: { reviewers: ["reviewer_logic", "reviewer_expert"] },
    reply: "Architecture accepted (reviewers: reviewer_logic, reviewer_expert).",
  },
  {
    tool: "submit_plan",
    role: "planner",
    phase: "planning",
    args: {},
    files: { "04_planning/plan.yaml": PLAN },
    payload: { snapshot: snap(PLAN, "yaml") },
    reply: "Plan accepted.",
  },
  {
    tool: "submit_review",
    role: "reviewer_quality",
    phase: "reviewing",
    args: {},
    files: { "07_review/review_reviewer_quality.yaml": REVIEW },
    payload: { role: "reviewer_quality", snapshot: snap(REVIEW, "yaml") },
    reply: "Review recorded for reviewer_quality: verdict fail (1 finding).",
  },
  {
    tool: "submit_done",
    role: "coder",
    phase: "implementing",
    args: { subplan_index: 2 },
    files: { "06_implementation/done_2.json": DONE2 },
    work: () => {
      writeFileSync(join(fx.projectDir, "src/new.ts"), "export {};\n");
      writeFileSync(join(fx.projectDir, "src/app.ts"), "export const app = 2;\n");
    },
    payload: { subplan_index: 2, snapshot: snap(DONE2, "json") },
    reply: "Subplan 2 accepted as done.",
  },
  {
    tool: "submit_research_done",
    role: "code-researcher",
    phase: "architecting",
    args: { topic: "auth-flow", type: "code" },
    files: { "03_research/code-auth-flow/summary.md": "Findings\n" },
    payload: { topic: "auth-flow", type: "code", role_type: "code-researcher" },
    reply: 'Research "auth-flow" recorded as done.',
  },
  {
    tool: "research_dispatch_code",
    role: "planner",
    phase: "planning",
    args: { topic: "db-layer", context: "  ctx  ", questions: [" q1 ", "q2"] },
    payload: { topic: "db-layer", context: "ctx", questions: ["q1", "q2"], scope_hints: null, research_type: "code" },
    reply: 'code research on "db-layer" dispatched',
  },
  {
    tool: "research_dispatch_web",
    role: "product-manager",
    phase: "product_management",
    args: { topic: "pricing", context: "c", questions: ["q"], scope_hints: ["a", " b "] },
    payload: { topic: "pricing", context: "c", questions: ["q"], scope_hints: ["a", "b"], research_type: "web" },
    reply: 'web research on "pricing" dispatched',
  },
];

describe("each tool's success path appends exactly one well-formed line", () => {
  for (const c of CASES) {
    test(c.tool, async () => {
      fx.setState(c.phase);
      for (const [rel, text] of Object.entries(c.files ?? {})) write(fx.sessionDir, rel, text);
      c.work?.();
      const client = await conn(c.role);
      const r = await client.callTool({ name: c.tool, arguments: c.args });
      expect(textOf(r)).toContain(c.reply);
      expect(r.isError).toBeFalsy();
      const events = readEvents(fx.sessionDir);
      expect(events).toHaveLength(1);
      const line = ToolEventLine.parse(events[0]);
      expect(line.tool).toBe(c.tool);
      expect(line.payload).toEqual(c.payload as any);
      expect(ToolPayloads[c.tool].safeParse(line.payload).success).toBe(true);
      expect(new Date(line.timestamp).toISOString()).toBe(line.timestamp);
      // the snapshot holds exactly the bytes that were validated
      const kept = (line.payload as { snapshot?: { path: string } }).snapshot;
      if (kept) expect(readFileSync(join(fx.sessionDir, kept.path), "utf8")).toBe(Object.values(c.files ?? {})[0]!);
    });
  }
});

describe("artifact validation refuses bad files and records nothing", () => {
  test("submit_plan lists plan problems with field paths, then accepts the fixed file", async () => {
    fx.setState("planning");
    const plan = validPlan();
    plan.groups[0].mode = "sideways";
    delete plan.subplans[1].tasks;
    write(fx.sessionDir, "04_planning/plan.yaml", YAML.stringify(plan));
    const client = await conn("planner");
    const r = await client.callTool({ name: "submit_plan", arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("has 2 problems:");
    expect(textOf(r)).toContain("  groups[0].mode: ");
    expect(textOf(r)).toContain("  subplans[1].tasks: required field is missing");
    expect(readEvents(fx.sessionDir)).toEqual([]);
    write(fx.sessionDir, "04_planning/plan.yaml", YAML.stringify(validPlan()));
    expect((await client.callTool({ name: "submit_plan", arguments: {} })).isError).toBeFalsy();
    expect(readEvents(fx.sessionDir)).toHaveLength(1);
  });

  test("submit_plan refuses parallel subplans that share owned files, naming the plans and the files", async () => {
    fx.setState("planning");
    const plan = validPlan();
    plan.subplans[1].owned_files = ["src/p2.ts", "src/p1.ts"];
    write(fx.sessionDir, "04_planning/plan.yaml", YAML.stringify(plan));
    const r = await (await conn("planner")).callTool({ name: "submit_plan", arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(
      '  groups[0].plans: plans 1 ("one") and 2 ("two") run in parallel in group "g1" but both own src/p1.ts: give each file to one plan, or put the plans in a serial group',
    );
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });

  test("submit_architecture refuses an empty architecture.md", async () => {
    write(fx.sessionDir, "02_architecting/architecture.md", "\n  \n");
    const client = await conn("architect");
    const r = await client.callTool({ name: "submit_architecture", arguments: {} });
    expect(textOf(r)).toContain("architecture is empty");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });

  test("a reviewer cannot submit another reviewer's review", async () => {
    fx.setState("reviewing");
    write(fx.sessionDir, "07_review/review_reviewer_logic.yaml", "verdict: pass\nsummary: ok\n");
    const client = await conn("reviewer_quality");
    const r = await client.callTool({ name: "submit_review", arguments: { role: "reviewer_logic" } });
    expect(textOf(r)).toContain("you are reviewer_quality and cannot submit the review of reviewer_logic");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });
});

describe("submit_done: the verification gate", () => {
  test("false claims are refused with every problem listed; after the work is real the call succeeds", async () => {
    fx.setState("implementing");
    const done = validDone({ subplan_index: 1, files_created: ["src/feature.ts", "../outside.ts"], files_modified: ["src/app.ts"] });
    write(fx.sessionDir, "06_implementation/done_1.json", JSON.stringify(done));
    const client = await conn("coder");
    const r = await client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } });
    expect(r.isError).toBe(true);
    const lines = textOf(r).split("\n");
    expect(lines[0]).toBe(`submit_done was refused: ${join(fx.sessionDir, "06_implementation/done_1.json")} has 3 problems:`);
    expect(lines.slice(1, 4)).toEqual([
      '  files_created[0]: "src/feature.ts" is claimed created but does not exist',
      `  files_created[1]: "../outside.ts" must not contain '..' (it has to stay inside the work directory)`,
      '  files_modified[0]: "src/app.ts" is claimed modified but is unchanged since HEAD',
    ]);
    expect(readEvents(fx.sessionDir)).toEqual([]);

    writeFileSync(join(fx.projectDir, "src/feature.ts"), "export const f = 1;\n");
    writeFileSync(join(fx.projectDir, "src/app.ts"), "export const app = 3;\n");
    write(fx.sessionDir, "06_implementation/done_1.json", JSON.stringify({ ...done, files_created: ["src/feature.ts"] }));
    const ok = await client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } });
    expect(textOf(ok)).toBe("Subplan 1 accepted as done.");
    expect(readEvents(fx.sessionDir).map((e) => e.payload.subplan_index)).toEqual([1]);
  });

  test("FAILED is refused with what to do; PARTIAL only for a sub-plan the plan allows it for, never in a fix round", async () => {
    fx.setState("implementing", {
      implementation_active_plan_ids: ["1", "2"],
      execution_groups: [
        {
          group_id: "g1",
          mode: "parallel",
          plans: [
            { index: 1, name: "one" },
            { index: 2, name: "two", allow_partial: true },
          ],
        },
      ],
    });
    const client = await conn("coder");
    write(fx.sessionDir, "06_implementation/done_1.json", JSON.stringify(validDone({ status: "FAILED" })));
    const failed = await client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe(
      `submit_done was refused: ${join(fx.sessionDir, "06_implementation/done_1.json")} has a problem:\n` +
        '  status: is "FAILED": submit_done records finished work only. Finish the tasks of plan 1 and make the tests pass, then set "status": "SUCCESS" and call submit_done again. If something you cannot fix blocks you, do not call submit_done: say what blocks you and wait for the user.\n' +
        "Nothing was recorded. Do what the lines above say.",
    );
    write(fx.sessionDir, "06_implementation/done_1.json", JSON.stringify(validDone({ status: "PARTIAL" })));
    expect(textOf(await client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } }))).toContain(
      'status: is "PARTIAL", but plan 1 does not allow a partial result',
    );
    expect(readEvents(fx.sessionDir)).toEqual([]);

    write(fx.sessionDir, "06_implementation/done_2.json", JSON.stringify(validDone({ status: "PARTIAL" })));
    expect(textOf(await client.callTool({ name: "submit_done", arguments: { subplan_index: 2 } }))).toBe(
      "Subplan 2 accepted as done (PARTIAL: the plan allows it).",
    );
    expect(readEvents(fx.sessionDir).map((e) => e.payload.subplan_index)).toEqual([2]);

    fx.setState("fixing", {
      implementation_active_plan_ids: ["1"],
      execution_groups: [{ group_id: "g1", mode: "serial", plans: [{ index: 1, name: "one", allow_partial: true }] }],
    });
    write(fx.sessionDir, "06_implementation/done_1.json", JSON.stringify(validDone({ status: "PARTIAL" })));
    expect(textOf(await client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } }))).toContain("a fix round must address every finding");
    expect(readEvents(fx.sessionDir)).toHaveLength(1);
  });

  test("a missing or malformed done artifact is refused", async () => {
    fx.setState("implementing");
    const client = await conn("coder");
    const missing = await client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } });
    expect(textOf(missing)).toContain("done_1.json has a problem:\n  file not found");
    write(fx.sessionDir, "06_implementation/done_1.json", '{"status": "SUCCESS",}');
    const broken = await client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } });
    expect(textOf(broken)).toContain("JSON syntax error at line 1, column 22");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });

  test("an index that is not active in implementing is refused; fixing accepts any index", async () => {
    fx.setState("implementing", { implementation_active_plan_ids: ["2"] });
    write(fx.sessionDir, "06_implementation/done_1.json", JSON.stringify(validDone()));
    const client = await conn("coder");
    const r = await client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } });
    expect(textOf(r)).toContain("subplan 1 is not being implemented right now (active: 2)");
    expect(readEvents(fx.sessionDir)).toEqual([]);
    fx.setState("fixing", { implementation_active_plan_ids: [] });
    expect((await client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } })).isError).toBeFalsy();
    expect(readEvents(fx.sessionDir)).toHaveLength(1);
  });

  test("a parallel coder cannot submit another coder's subplan (it would end that coder's work); its own goes through", async () => {
    fx.setState("implementing", { implementation_active_plan_ids: ["1", "2"] });
    for (const n of [1, 2]) write(fx.sessionDir, `06_implementation/done_${n}.json`, JSON.stringify(validDone()));
    const c = await connect(ep, "coder", { agent: "coder:1", fx });
    open.push(c);
    const r = await c.client.callTool({ name: "submit_done", arguments: { subplan_index: 2 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("you are coder:1, the coder of subplan 1; subplan 2 has its own coder");
    expect(readEvents(fx.sessionDir)).toEqual([]);
    expect((await c.client.callTool({ name: "submit_done", arguments: { subplan_index: 1 } })).isError).toBeFalsy();
    expect(readEvents(fx.sessionDir)).toHaveLength(1);
  });
});

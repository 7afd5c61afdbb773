import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { DoneArtifact } from "../../src/schema/artifacts/done.ts";
import { Plan } from "../../src/schema/artifacts/plan.ts";
import { Review } from "../../src/schema/artifacts/review.ts";
import { F, doneArtifact, reviewPrompt, reviewYaml } from "../../src/protocol/paths.ts";
import type { Role } from "../../src/schema/catalog.ts";
import { SimWorld } from "./harness.ts";
import { PLAN_ONE } from "./plans.ts";

let w: SimWorld;
afterEach(() => w?.cleanup());

/** Launch an agent, deliver one prompt, wait until it reports its task done. */
async function runTask(role: Role, promptRel: string, opts: { scenario?: string; body?: string } = {}): Promise<string> {
  const pane = await w.launch(role, { scenario: opts.scenario });
  await w.waitScreen(pane, "[sim] ready");
  await w.deliver(pane, w.prompt(promptRel, opts.body));
  await w.waitScreen(pane, /✓ .* done\n/);
  return pane;
}

test("product manager adds acceptance criteria to requirements.md and calls submit_pm_done", async () => {
  w = await SimWorld.create();
  w.setState("product_management", { product_manager: true });
  await runTask("product-manager", F.pmPrompt);
  expect(w.toolEvents().map((e) => e.tool)).toEqual(["submit_pm_done"]);
  const req = w.read(F.requirements);
  expect(req.startsWith("# Requirements\n\nAdd a greeting helper")).toBe(true);
  expect(req).toContain("## Acceptance Criteria");
}, 30000);

test("architect nominates the reviewers of scenario reviewers=logic+quality+expert", async () => {
  w = await SimWorld.create();
  await runTask("architect", F.architectPrompt, { scenario: "reviewers=logic+quality+expert,design" });
  const [ev] = await w.waitTool("submit_architecture");
  expect(ev!.payload).toEqual({ reviewers: ["reviewer_logic", "reviewer_quality", "reviewer_expert"] });
  expect(w.read(F.architecture)).toContain("## Needs design\nyes");
}, 30000);

test("planner writes a valid v2 plan (one serial subplan owning a module + its test) and calls submit_plan", async () => {
  w = await SimWorld.create();
  w.setState("planning", { last_event: "architecture_written" });
  await runTask("planner", F.plannerPrompt);
  await w.waitTool("submit_plan");
  const plan = Plan.parse(parse(w.read(F.planYaml)));
  expect(plan.groups).toEqual([{ group_id: "g1", mode: "serial", plans: [{ index: 1, name: "Core greeting module" }] }]);
  expect(plan.subplans[0]!.owned_files).toEqual(["src/greeting.js", "test/greeting.test.js"]);
  expect(plan.needs_design).toBe(false);
}, 30000);

test("planner with scenario parallel,design: g1 parallel (1, 2 on disjoint files) then g2 serial (3); needs_design", async () => {
  w = await SimWorld.create("Build a slugify function");
  w.setState("planning", { last_event: "architecture_written" });
  await runTask("planner", F.plannerPrompt, { scenario: "parallel,design" });
  const plan = Plan.parse(parse(w.read(F.planYaml)));
  expect(plan.needs_design).toBe(true);
  expect(plan.groups.map((g) => [g.group_id, g.mode, g.plans.map((p) => p.index)])).toEqual([
    ["g1", "parallel", [1, 2]],
    ["g2", "serial", [3]],
  ]);
  const [a, b] = plan.subplans;
  expect(a!.owned_files.filter((f) => b!.owned_files.includes(f))).toEqual([]);
  expect(a!.owned_files[0]).toBe("src/slugify.js");
}, 30000);

test("changes_prompt.md: the planner re-plans the same files to address changes.md", async () => {
  w = await SimWorld.create();
  w.write(F.planYaml, PLAN_ONE);
  w.write(F.changes, "Make the greeting configurable through an option.\n");
  w.setState("planning", { last_event: "changes_requested" });
  await runTask("planner", F.changesPrompt);
  await w.waitTool("submit_plan");
  const plan = Plan.parse(parse(w.read(F.planYaml)));
  expect(plan.subplans).toHaveLength(1);
  expect(plan.subplans[0]!.owned_files).toEqual(["src/greeting.js", "test/greeting.test.js"]);
  expect(plan.subplans[0]!.tasks).toEqual(["Apply change: Make the greeting configurable through an option."]);
}, 30000);

test("designer writes 05_design/design.md (no tool call)", async () => {
  w = await SimWorld.create();
  w.write(F.planMd, "Greeting helper: one module and its tests.\n");
  w.setState("designing", { last_event: "plan_written" });
  await runTask("designer", F.designerPrompt, { scenario: "" });
  expect(w.read(F.design)).toContain("## Accessibility");
  expect(w.toolEvents()).toEqual([]);
}, 30000);

test("coder N implements subplan N in the repo, writes a truthful done_N.json and passes the gate", async () => {
  w = await SimWorld.create();
  w.write(F.planYaml, PLAN_ONE);
  w.setState("implementing", { last_event: "plan_written" });
  await runTask("coder", "06_implementation/coder_prompt_1.md");
  const [ev] = await w.waitTool("submit_done");
  expect(ev!.payload).toMatchObject({ subplan_index: 1, snapshot: { sha256: expect.any(String) } });
  const done = DoneArtifact.parse(JSON.parse(w.read(doneArtifact(1))));
  expect(done.status).toBe("SUCCESS");
  expect(done.files_created).toEqual(["src/greeting.js", "test/greeting.test.js"]);
  expect(done.files_modified).toEqual([]);
  expect(done.tasks_completed).toEqual(["Create src/greeting.js", "Add tests in test/greeting.test.js"]);
  expect(done.tests).toEqual({ files: 1, cases: 2 });
  // the code is real: node runs the generated tests against the generated module
  const run = Bun.spawnSync(["node", "--test", "test/greeting.test.js"], { cwd: w.projectDir, stdout: "pipe", stderr: "pipe" });
  expect(run.stdout.toString()).toContain("# pass 2");
  expect(run.exitCode).toBe(0);
}, 30000);

test("coder_prompt_whole.md: every subplan in order, one submit_done each", async () => {
  w = await SimWorld.create();
  w.setState("planning");
  await runTask("planner", F.plannerPrompt, { scenario: "parallel" });
  w.setState("implementing", { last_event: "plan_written", implementation_single_coder: true, implementation_active_plan_ids: ["1", "2", "3"] });
  await runTask("coder", F.coderWholePrompt);
  const events = await w.waitTool("submit_done", 3);
  expect(events.map((e) => e.payload.subplan_index)).toEqual([1, 2, 3]);
  for (const f of ["src/greeting.js", "src/greeting_format.js", "src/greeting_index.js"])
    expect(readFileSync(join(w.projectDir, f), "utf8")).toContain("export function");
}, 30000);

test("reviewer writes review_reviewer_<short>.yaml (with commit_message) and calls submit_review({role})", async () => {
  w = await SimWorld.create();
  w.write(F.planYaml, PLAN_ONE);
  w.setState("reviewing", { last_event: "implementation_completed" });
  await runTask("reviewer_quality", reviewPrompt("quality"), { scenario: "commit_message" });
  const [ev] = await w.waitTool("submit_review");
  expect(ev!.payload).toMatchObject({ role: "reviewer_quality", snapshot: { sha256: expect.any(String) } });
  const review = Review.parse(parse(w.read(reviewYaml("reviewer_quality"))));
  expect(review.verdict).toBe("pass");
  expect(review.commit_message).toBe("feat: add a greeting helper");
}, 30000);

test("summary_prompt.md: the reviewer writes 08_completion/summary.md", async () => {
  w = await SimWorld.create();
  w.setState("reviewing", { last_event: "review_passed", awaiting_summary: true });
  await runTask("reviewer_logic", F.summaryPrompt);
  const summary = w.read(F.summary);
  expect(summary).toContain("## What was implemented\n\n- Add a greeting helper");
  expect(w.toolEvents()).toEqual([]);
}, 30000);

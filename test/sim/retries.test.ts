import { afterEach, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import git from "isomorphic-git";
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

async function start(role: Role, scenario: string): Promise<string> {
  const pane = await w.launch(role, { scenario });
  await w.waitScreen(pane, "[sim] ready");
  return pane;
}

test("gate_refuse_once: the first done_1.json claims a file never written; after the refusal it is corrected", async () => {
  w = await SimWorld.create();
  w.write(F.planYaml, PLAN_ONE);
  w.setState("implementing", { last_event: "plan_written" });
  const pane = await start("coder", "gate_refuse_once");
  await w.deliver(pane, w.prompt("06_implementation/coder_prompt_1.md"));
  const [ev] = await w.waitTool("submit_done");
  expect(ev!.payload).toMatchObject({ subplan_index: 1, snapshot: { sha256: expect.any(String) } });
  const screen = await w.waitScreen(pane, "✓ coder 1 done");
  expect(screen).toContain("✗ tool error: submit_done");
  expect(screen).toContain("src/greeting_extra.js");
  const done = DoneArtifact.parse(JSON.parse(w.read(doneArtifact(1))));
  expect(done.files_created).toEqual(["src/greeting.js", "test/greeting.test.js"]);
  expect(w.toolEvents()).toHaveLength(1);
  // "once" survives a restart: a second coder tells the truth the first time
  w.setState("implementing", { last_event: "plan_written" });
  const again = await start("coder", "gate_refuse_once");
  await w.deliver(again, w.prompt("06_implementation/coder_prompt_1.md"));
  await w.waitTool("submit_done", 2);
  expect(await w.screen(again)).not.toContain("tool error");
}, 40000);

test("malformed_plan_once: the first plan.yaml breaks the contract; after submit_plan's error a valid plan is resubmitted", async () => {
  w = await SimWorld.create();
  w.setState("planning");
  const pane = await start("planner", "malformed_plan_once");
  await w.deliver(pane, w.prompt(F.plannerPrompt));
  await w.waitTool("submit_plan");
  const screen = await w.waitScreen(pane, "✓ planner done");
  expect(screen).toContain("✗ tool error: submit_plan");
  expect(screen).toContain("● fixing plan.yaml after the tool's error");
  expect(Plan.safeParse(parse(w.read(F.planYaml))).success).toBe(true);
  expect(w.toolEvents()).toHaveLength(1);
}, 30000);

test("review_fail_once: reviewer_logic fails its first review with one finding, then passes; other reviewers pass", async () => {
  w = await SimWorld.create();
  w.write(F.planYaml, PLAN_ONE);
  w.setState("reviewing", { last_event: "implementation_completed" });
  const logic = await start("reviewer_logic", "review_fail_once");
  const quality = await start("reviewer_quality", "review_fail_once");
  await w.deliver(quality, w.prompt(reviewPrompt("quality")));
  await w.deliver(logic, w.prompt(reviewPrompt("logic")));
  await w.waitTool("submit_review", 2);
  const first = Review.parse(parse(w.read(reviewYaml("reviewer_logic"))));
  expect(first.verdict).toBe("fail");
  expect(first.findings).toHaveLength(1);
  expect(first.findings[0]!.location).toBe("src/greeting.js:4");
  expect(Review.parse(parse(w.read(reviewYaml("reviewer_quality")))).verdict).toBe("pass");
  // the next review round (a new prompt to the same pane) passes; each round starts without
  // the reviewers' files, as the orchestrator's reviewing phase removes them
  await w.waitScreen(logic, "✓ reviewer_logic done");
  fs.rmSync(w.path(reviewYaml("reviewer_logic")));
  await w.deliver(logic, w.prompt(reviewPrompt("logic"), "Re-check the previous findings.\n"));
  await w.waitTool("submit_review", 3);
  expect(Review.parse(parse(w.read(reviewYaml("reviewer_logic")))).verdict).toBe("pass");
}, 40000);

test("review_fail_always: every review fails", async () => {
  w = await SimWorld.create();
  w.setState("reviewing");
  const pane = await start("reviewer_expert", "review_fail_always");
  for (let i = 1; i <= 2; i++) {
    fs.rmSync(w.path(reviewYaml("reviewer_expert")), { force: true }); // a new round, as the orchestrator starts it
    await w.deliver(pane, w.prompt(reviewPrompt("expert")));
    await w.waitTool("submit_review", i);
    expect(Review.parse(parse(w.read(reviewYaml("reviewer_expert")))).verdict).toBe("fail");
    await w.waitScreen(pane, new RegExp(`(✓ reviewer_expert done[\\s\\S]*){${i}}`));
  }
}, 40000);

test("fix_prompt.md: the fixer edits the owned source and its test, reports them as modified, submit_done(1)", async () => {
  w = await SimWorld.create();
  w.write(F.planYaml, PLAN_ONE);
  const files = {
    "src/greeting.js": 'export function greeting(input = "world") {\n  return `greeting: ${input}`;\n}\n',
    "test/greeting.test.js": 'import { test } from "node:test";\n',
  };
  for (const [f, c] of Object.entries(files)) {
    fs.mkdirSync(join(w.projectDir, f, ".."), { recursive: true });
    fs.writeFileSync(join(w.projectDir, f), c);
  }
  await git.add({ fs, dir: w.projectDir, filepath: Object.keys(files) });
  await git.commit({ fs, dir: w.projectDir, message: "greeting", author: { name: "t", email: "t@example.com" } });
  w.write(F.fixRequest, "## Review: reviewer_logic (verdict: fail)\n\n### Finding 1\n- Issue: empty input is not rejected\n");
  w.setState("fixing", { last_event: "review_failed", review_iteration: 1 });
  const pane = await start("coder", "");
  await w.deliver(pane, w.prompt(F.fixPrompt));
  const [ev] = await w.waitTool("submit_done");
  expect(ev!.payload).toMatchObject({ subplan_index: 1, snapshot: { sha256: expect.any(String) } });
  const done = DoneArtifact.parse(JSON.parse(w.read(doneArtifact(1))));
  expect(done.files_modified).toEqual(["src/greeting.js", "test/greeting.test.js"]);
  expect(done.files_created).toEqual([]);
  expect(fs.readFileSync(join(w.projectDir, "src/greeting.js"), "utf8")).toContain("// change 1: fix round 1: empty input is not rejected");
}, 30000);

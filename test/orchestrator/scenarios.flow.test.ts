import { describe, expect, test } from "bun:test";
import type { State } from "../../src/schema/state.ts";
import { apply, clock, drive, events, freshState, killed, launched, liveAgents, makePlan, ofType, prompts, settings, templates, written } from "./fixtures.ts";

const progress = (s: State) => ({
  index: s.implementation_group_index,
  mode: s.implementation_group_mode,
  active: s.implementation_active_plan_ids,
  completedGroups: s.implementation_completed_group_ids,
  completed: s.completed_subplans,
});

describe("whole runs", () => {
  test("happy path: architect → plan (one serial group) → code → review pass → summary → auto-approval → commit → done", () => {
    const ev = events(clock());
    const s = settings({ skip_final_approval: true });
    let st = freshState();
    let r = apply(st, ev.start(), s);
    expect(r.state.phase).toBe("architecting");
    expect(templates(r.effects)).toEqual(["02_architecting/architect_prompt.md<-architect"]);
    expect(prompts(r.effects)).toEqual(["architect:02_architecting/architect_prompt.md"]);

    r = apply(r.state, ev.arch(), s);
    expect(r.state).toMatchObject({ phase: "planning", last_event: "architecture_written" });
    expect(r.state.reviewer_nominations).toBeUndefined();

    r = apply(r.state, ev.plan(makePlan([{ mode: "serial", plans: [1, 2] }])), s);
    expect(r.state).toMatchObject({ phase: "implementing", last_event: "plan_written", subplan_count: 2 });
    expect(progress(r.state)).toEqual({ index: 1, mode: "serial", active: ["1"], completedGroups: [], completed: [] });
    expect(launched(r.effects)).toEqual(["coder"]);
    expect(ofType(r.effects, "delete_matching").map((e) => e.pattern)).toContain("^done_\\d+(\\.json)?$");

    r = apply(r.state, ev.done(1), s);
    expect(progress(r.state)).toEqual({ index: 1, mode: "serial", active: ["2"], completedGroups: [], completed: ["1"] });
    expect(launched(r.effects)).toEqual([]);
    expect(prompts(r.effects)).toEqual(["coder:06_implementation/coder_prompt_2.md"]);
    expect(ofType(r.effects, "append_file")[0]!.content).toMatch(/plan 1 SUCCESS: 1 tasks, 1 created, 0 modified, tests 1 files\/2 cases$/);

    r = apply(r.state, ev.done(2), s);
    expect(r.state).toMatchObject({ phase: "reviewing", last_event: "implementation_completed" });
    expect(progress(r.state)).toEqual({ index: 1, mode: "serial", active: [], completedGroups: ["g1"], completed: ["1", "2"] });
    expect(killed(r.effects)).toEqual(["coder"]);
    expect(launched(r.effects)).toEqual(["reviewer_logic"]); // the default reviewer
    expect(templates(r.effects)).toEqual(["07_review/review_logic_prompt.md<-reviewer_logic"]);

    r = apply(r.state, ev.review("reviewer_logic", "pass", "feat: add rate limiting"), s);
    expect(r.state).toMatchObject({ phase: "reviewing", last_event: "review_passed", awaiting_summary: true });
    expect(written(r.effects)).toEqual(["07_review/review_0_reviewer_logic.md", "07_review/review.md"]);
    expect(prompts(r.effects)).toEqual(["reviewer_logic:08_completion/summary_prompt.md"]);
    expect(launched(r.effects)).toEqual([]); // the reviewer that just passed writes the summary

    r = apply(r.state, ev.summary(), s);
    expect(r.state).toMatchObject({ phase: "completing", last_event: "review_passed", awaiting_summary: false });
    expect(killed(r.effects)).toEqual(["reviewer_logic"]);
    const approval = ofType(r.effects, "write_file").find((e) => e.path === "08_completion/approval.json")!;
    expect(JSON.parse(approval.content)).toEqual({ action: "approve", exclude_files: [], commit_message: "feat: add rate limiting" });
    expect(ofType(r.effects, "show_completion_panel")).toEqual([]);

    r = apply(r.state, ev.approve("feat: add rate limiting"), s);
    expect(ofType(r.effects, "commit")).toEqual([
      {
        type: "commit",
        approval: { action: "approve", exclude_files: [], commit_message: "feat: add rate limiting" },
        suggested_message: "feat: add rate limiting",
      },
    ]);
    r = apply(r.state, ev.committed(), s);
    expect(r.state).toMatchObject({ phase: "done", last_event: "approval_received", commit_hash: "abc1234" });
    expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code: 0, cleanup: true }]);
    expect(liveAgents(r.state)).toEqual([]);
    expect(r.state.history!.map((h) => `${h.phase}:${h.event}`)).toEqual([
      "architecting:feature_created",
      "planning:architecture_written",
      "implementing:plan_written",
      "reviewing:implementation_completed",
      "reviewing:review_passed",
      "completing:review_passed",
      "done:approval_received",
    ]);
    st = r.state;
    expect(apply(st, ev.cancel(), s).state).toBe(st);
  });

  test("keep_session: done without cleanup; without skip_final_approval the panel is shown instead of approval.json", () => {
    const ev = events(clock());
    const s = settings({ keep_session: true });
    const { state, effects } = drive(
      freshState(),
      [ev.start(), ev.arch(), ev.plan(makePlan([{ mode: "serial", plans: [1] }])), ev.done(1), ev.review("reviewer_logic", "pass"), ev.summary()],
      s,
    );
    expect(state.phase).toBe("completing");
    expect(written(effects)).not.toContain("08_completion/approval.json");
    expect(ofType(effects, "show_completion_panel").length).toBe(1);
    // the person is called once for this wait (#11.8); a headless run has nobody to call
    expect(ofType(effects, "attention")).toEqual([{ type: "attention", text: "the run waits for your approval" }]);
    const headless = drive(
      freshState(),
      [ev.start(), ev.arch(), ev.plan(makePlan([{ mode: "serial", plans: [1] }])), ev.done(1), ev.review("reviewer_logic", "pass"), ev.summary()],
      settings({ keep_session: true, headless: true }),
    );
    expect(headless.state).toMatchObject({ phase: "completing", awaiting_decision: true });
    expect(ofType(headless.effects, "attention")).toEqual([]);
    const end = drive(state, [ev.approve(), ev.committed()], s);
    expect(ofType(end.effects, "finish")).toEqual([{ type: "finish", code: 0, cleanup: false }]);
    expect(end.state.cleanup_feature_dir).toBe(false);
  });

  test("product management runs first, then the architect", () => {
    const ev = events(clock());
    let r = apply(freshState({ productManager: true }), ev.start());
    expect(r.state.phase).toBe("product_management");
    expect(templates(r.effects)).toEqual(["01_product_management/product_manager_prompt.md<-product-manager"]);
    r = apply(r.state, ev.pm());
    expect(r.state).toMatchObject({ phase: "architecting", last_event: "pm_completed", product_manager: true });
    expect(killed(r.effects)).toEqual(["product-manager"]);
    expect(liveAgents(r.state)).toEqual(["architect"]);
  });

  test("needs_design: planning → designing → implementing (design_written starts coding fresh)", () => {
    const ev = events(clock());
    let { state } = drive(freshState(), [ev.start(), ev.arch()]);
    let r = apply(state, ev.plan(makePlan([{ mode: "serial", plans: [1] }], true)));
    expect(r.state).toMatchObject({ phase: "designing", last_event: "plan_written", needs_design: true });
    expect(ofType(r.effects, "delete_file").map((e) => e.path)).toContain("05_design/design.md");
    expect(launched(r.effects)).toEqual(["designer"]);
    expect(r.state.agents!.designer!.label).toBe("[designer] rate-limit");
    r = apply(r.state, ev.design());
    expect(r.state).toMatchObject({ phase: "implementing", last_event: "design_written", implementation_active_plan_ids: ["1"] });
    expect(ofType(r.effects, "delete_matching").length).toBe(1);
    state = r.state;
    expect(liveAgents(state)).toEqual(["coder"]);
  });

  test("two parallel coders, then a serial group worked by one coder pane", () => {
    const ev = events(clock());
    const plan = makePlan([
      { mode: "parallel", plans: [1, 2] },
      { mode: "serial", plans: [3, 4] },
    ]);
    let r = drive(freshState(), [ev.start(), ev.arch(), ev.plan(plan)]);
    expect(progress(r.state)).toEqual({ index: 1, mode: "parallel", active: ["1", "2"], completedGroups: [], completed: [] });
    expect(launched(r.effects).filter((a) => a.startsWith("coder"))).toEqual(["coder:1", "coder:2"]);
    expect(ofType(r.effects, "show_agents").at(-1)!.agents).toEqual(["coder:1", "coder:2"]);
    expect(r.state.implementation_group_total).toBe(2);

    r = apply(r.state, ev.done(2));
    expect(progress(r.state)).toEqual({ index: 1, mode: "parallel", active: ["1"], completedGroups: [], completed: ["2"] });
    expect(killed(r.effects)).toEqual(["coder:2"]);
    expect(liveAgents(r.state)).toEqual(["coder:1"]);

    r = apply(r.state, ev.done(1));
    expect(progress(r.state)).toEqual({ index: 2, mode: "serial", active: ["3"], completedGroups: ["g1"], completed: ["2", "1"] });
    expect(killed(r.effects)).toEqual(["coder:1"]);
    expect(launched(r.effects)).toEqual(["coder"]);
    expect(prompts(r.effects)).toEqual(["coder:06_implementation/coder_prompt_3.md"]);

    r = apply(r.state, ev.done(3));
    expect(progress(r.state)).toEqual({ index: 2, mode: "serial", active: ["4"], completedGroups: ["g1"], completed: ["2", "1", "3"] });
    expect(launched(r.effects)).toEqual([]); // same pane, same conversation
    expect(killed(r.effects)).toEqual([]);
    expect(prompts(r.effects)).toEqual(["coder:06_implementation/coder_prompt_4.md"]);

    r = apply(r.state, ev.done(4));
    expect(r.state.phase).toBe("reviewing");
    expect(progress(r.state)).toEqual({ index: 2, mode: "serial", active: [], completedGroups: ["g1", "g2"], completed: ["2", "1", "3", "4"] });
    expect(killed(r.effects)).toEqual(["coder"]);
    expect(liveAgents(r.state)).toEqual(["reviewer_logic"]);
  });

  test("single-coder mode: one pane gets the whole plan and finishes when every plan is done", () => {
    const ev = events(clock());
    const s = settings({ single_coder: true });
    const plan = makePlan([
      { mode: "parallel", plans: [1, 2] },
      { mode: "serial", plans: [3] },
    ]);
    let r = drive(freshState(), [ev.start(), ev.arch(), ev.plan(plan)], s);
    expect(r.state.implementation_single_coder).toBe(true);
    expect(launched(r.effects).filter((a) => a.startsWith("coder"))).toEqual(["coder"]);
    expect(ofType(r.effects, "write_prompt").at(-1)).toMatchObject({
      path: "06_implementation/coder_prompt_whole.md",
      template: "coder-whole",
      vars: { plan_indices: "1,2,3" },
    });
    expect(r.state.implementation_active_plan_ids).toEqual(["1", "2", "3"]);
    r = apply(r.state, ev.done(3), s);
    r = apply(r.state, ev.done(1), s);
    expect(r.state).toMatchObject({ phase: "implementing", implementation_active_plan_ids: ["2"] });
    expect(killed(r.effects)).toEqual([]);
    r = apply(r.state, ev.done(2), s);
    expect(r.state.phase).toBe("reviewing");
    expect(killed(r.effects)).toEqual(["coder"]);
  });
});

import { describe, expect, test } from "bun:test";
import { prepareResume } from "../../src/orchestrator/resume.ts";
import { apply, drive, killed, launched, liveAgents, ofType, prompts, settings, templates, written } from "./fixtures.ts";
import { STD_PLAN, reach } from "./reach.ts";

const NO_FACTS = { pmDone: true, hasArchitecture: true, hasExecutionPlan: true, hasDesign: false };

describe("review loop", () => {
  test("a review that fails once, then passes: fix request, iteration, no reviewer leaks, follow-up template", () => {
    const { state, ev } = reach("reviewing"); // reviewers logic + quality, round 1
    expect(liveAgents(state)).toEqual(["reviewer_logic", "reviewer_quality"]);
    let r = apply(state, ev.review("reviewer_quality", "pass"));
    expect(killed(r.effects)).toEqual(["reviewer_quality"]);
    r = apply(r.state, ev.review("reviewer_logic", "fail"));
    expect(r.state).toMatchObject({ phase: "fixing", last_event: "review_failed", review_iteration: 1 });
    const fix = ofType(r.effects, "write_file").find((e) => e.path === "07_review/fix_request.md")!.content;
    expect(fix).toContain("# Fix Request (review iteration 1)");
    expect(fix).toContain("## Review: reviewer_logic (verdict: fail)");
    expect(fix).toContain("- Issue: reviewer_logic found a bug");
    expect(fix).toContain("## Review: reviewer_quality (verdict: pass)");
    expect(fix).toContain("reviewer_quality says pass");
    expect(fix.indexOf("reviewer_logic (verdict")).toBeLessThan(fix.indexOf("reviewer_quality (verdict"));
    expect(killed(r.effects)).toEqual(["reviewer_logic"]);
    expect(liveAgents(r.state)).toEqual(["coder"]); // no reviewer of round 1 is left
    expect(templates(r.effects)).toEqual(["07_review/fix_prompt.md<-fix"]);
    expect(ofType(r.effects, "delete_matching").length).toBe(1);
    expect(r.state.agents!.coder!.label).toBe("[coder] fix round 1");

    r = apply(r.state, ev.done(1));
    expect(r.state).toMatchObject({ phase: "reviewing", last_event: "implementation_completed", review_iteration: 1 });
    expect(r.state.active_reviews).toEqual({ reviewer_logic: "pending", reviewer_quality: "pending" });
    expect(r.state.review_results).toEqual({});
    expect(launched(r.effects)).toEqual(["reviewer_logic", "reviewer_quality"]);
    expect(templates(r.effects)).toEqual(["07_review/review_logic_prompt.md<-review-followup", "07_review/review_quality_prompt.md<-review-followup"]);
    expect(ofType(r.effects, "delete_file").map((e) => e.path)).toEqual(["07_review/review_reviewer_logic.yaml", "07_review/review_reviewer_quality.yaml"]);
    expect(r.state.agents!.reviewer_logic!.label).toBe("[reviewer] logic · round 2");

    r = apply(r.state, ev.review("reviewer_logic", "pass", "fix: limiter"));
    expect(written(r.effects)).toEqual(["07_review/review_1_reviewer_logic.md"]);
    r = apply(r.state, ev.review("reviewer_quality", "pass"));
    expect(r.state).toMatchObject({ phase: "reviewing", awaiting_summary: true, last_event: "review_passed" });
    expect(liveAgents(r.state)).toEqual(["reviewer_logic"]);
    r = apply(r.state, ev.summary());
    expect(r.state.phase).toBe("completing");
    expect(written(r.effects)).not.toContain("08_completion/summary.md"); // the reviewer wrote it
  });

  for (const cap of [0, 3]) {
    test(`loop cap ${cap}: after ${cap} fix round(s) a failing review goes to completing with a synthesized summary (commit_on_loop_cap)`, () => {
      const s = settings({ max_review_iterations: cap, skip_final_approval: true, commit_on_loop_cap: true });
      let { state, ev } = reach("reviewing", s);
      let effects = [] as ReturnType<typeof apply>["effects"];
      for (let round = 0; round <= cap; round++) {
        expect(state.review_iteration).toBe(round);
        let r = drive(state, [ev.review("reviewer_quality", "pass"), ev.review("reviewer_logic", "fail")], s);
        if (round < cap) {
          expect(r.state.phase).toBe("fixing");
          r = apply(r.state, ev.done(1), s);
          expect(r.state.phase).toBe("reviewing");
        }
        state = r.state;
        effects = r.effects;
      }
      expect(state).toMatchObject({ phase: "completing", last_event: "review_failed", review_iteration: cap });
      expect(written(effects)).not.toContain("07_review/fix_request.md");
      const summary = ofType(effects, "write_file").find((e) => e.path === "08_completion/summary.md")!.content;
      expect(summary).toContain(`stopped after ${cap} fix round(s)`);
      expect(summary).toContain("### reviewer_logic: fail");
      expect(summary).toContain("### reviewer_quality: pass");
      expect(JSON.parse(ofType(effects, "write_file").find((e) => e.path === "08_completion/approval.json")!.content)).toEqual({
        action: "approve",
        exclude_files: [],
      });
      expect(liveAgents(state)).toEqual([]);
      expect(state.review_loop_cap).toEqual({
        iterations: cap,
        decision: "commit",
        open_findings: [{ reviewer: "reviewer_logic", severity: "high", location: "src/part1.ts:3", issue: "reviewer_logic found a bug" }],
      });
    });
  }

  /** Reviewers fail every round until the cap. */
  function reachCap(s: ReturnType<typeof settings>) {
    let { state, ev } = reach("reviewing", s);
    let r = { state, effects: [] as ReturnType<typeof apply>["effects"] };
    for (let round = 0; ; round++) {
      r = drive(state, [ev.review("reviewer_quality", "fail"), ev.review("reviewer_logic", "fail")], s);
      if (r.state.phase !== "fixing") return { r, ev };
      state = apply(r.state, ev.done(1), s).state;
    }
  }

  test("loop cap with nobody to approve: the run fails (exit 1, session kept) with the open findings, and nothing is committed", () => {
    const s = settings({ max_review_iterations: 2, skip_final_approval: true });
    const { r } = reachCap(s);
    expect(r.state).toMatchObject({ phase: "failed", last_event: "run_failed", interruption_category: "failed", review_iteration: 2 });
    expect(r.state.interruption_cause).toBe(
      "the review loop stopped after 2 fix round(s) with 2 open finding(s) from reviewer_logic, reviewer_quality; nothing was committed. To commit anyway set defaults.completion.commit_on_loop_cap: true; to allow more fix rounds raise defaults.max_review_iterations; then resume",
    );
    expect(r.state.review_loop_cap).toEqual({
      iterations: 2,
      decision: "fail",
      open_findings: [
        { reviewer: "reviewer_logic", severity: "high", location: "src/part1.ts:3", issue: "reviewer_logic found a bug" },
        { reviewer: "reviewer_quality", severity: "high", location: "src/part1.ts:3", issue: "reviewer_quality found a bug" },
      ],
    });
    expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code: 1, cleanup: false }]);
    expect(ofType(r.effects, "commit")).toEqual([]);
    expect(written(r.effects)).toEqual(expect.arrayContaining(["08_completion/summary.md"]));
    expect(written(r.effects)).not.toContain("08_completion/approval.json");
    expect(liveAgents(r.state)).toEqual([]);
  });

  test("a run failed at the loop cap resumes into the cap decision again: more fix rounds once the cap is raised, a commit once opted in", () => {
    const { r, ev } = reachCap(settings({ max_review_iterations: 1, skip_final_approval: true }));
    const resumed = prepareResume(r.state, NO_FACTS, "2030-01-01T00:00:00.000Z");
    expect(resumed.phase).toBe("reviewing");
    const again = apply(resumed, ev.resume(), settings({ max_review_iterations: 1, skip_final_approval: true }));
    expect(again.state.phase).toBe("failed");
    const raised = apply(resumed, ev.resume(), settings({ max_review_iterations: 2, skip_final_approval: true }));
    expect(raised.state).toMatchObject({ phase: "fixing", review_iteration: 2 });
    expect(raised.state.review_loop_cap).toBeUndefined();
    const opted = apply(resumed, ev.resume(), settings({ max_review_iterations: 1, skip_final_approval: true, commit_on_loop_cap: true }));
    expect(opted.state).toMatchObject({ phase: "completing", review_loop_cap: { decision: "commit" } });
    expect(written(opted.effects)).toContain("08_completion/approval.json");
  });

  test("loop cap with someone to approve: completing shows the panel with the loop-cap summary", () => {
    const { r } = reachCap(settings({ max_review_iterations: 1 }));
    expect(r.state).toMatchObject({ phase: "completing", last_event: "review_failed", review_loop_cap: { iterations: 1, decision: "ask" } });
    expect(ofType(r.effects, "show_completion_panel")).toHaveLength(1);
    expect(ofType(r.effects, "write_file").find((e) => e.path === "08_completion/summary.md")!.content).toContain("stopped after 1 fix round(s)");
    expect(written(r.effects)).not.toContain("08_completion/approval.json");
  });

  test("change request from completing re-plans with the change template; counters reset; a resume keeps the template", () => {
    let { state, ev } = reach("fixing");
    state = drive(state, [ev.done(1), ev.review("reviewer_logic", "pass"), ev.review("reviewer_quality", "pass"), ev.summary()]).state;
    expect(state).toMatchObject({ phase: "completing", review_iteration: 1 });
    let r = apply(state, ev.changes());
    expect(r.state).toMatchObject({
      phase: "planning",
      last_event: "changes_requested",
      replanning: true,
      review_iteration: 0,
      subplan_count: 0,
      completed_subplans: [],
      implementation_group_index: 0,
      implementation_group_mode: null,
      implementation_active_plan_ids: [],
      implementation_completed_group_ids: [],
      active_reviews: {},
      review_results: {},
    });
    expect(templates(r.effects)).toEqual(["04_planning/changes_prompt.md<-change"]);
    expect(prompts(r.effects)).toEqual(["planner:04_planning/changes_prompt.md"]);
    expect(liveAgents(r.state)).toEqual(["planner"]);

    // the orchestrator dies while re-planning; `agentmux resume` prepares the state and re-enters
    const resumed = prepareResume(
      { ...r.state, phase: "failed" as const, history: [...r.state.history!, { phase: "failed", event: "run_canceled", at: ev.start().at }] },
      NO_FACTS,
      "2030-01-01T00:00:00.000Z",
    );
    expect(resumed.phase).toBe("planning");
    const again = apply(resumed, ev.resume());
    expect(templates(again.effects)).toEqual(["04_planning/changes_prompt.md<-change"]);

    // the next accepted plan ends the re-plan; implementing starts fresh
    r = apply(again.state, ev.plan(STD_PLAN));
    expect(r.state).toMatchObject({ phase: "implementing", last_event: "plan_written", replanning: false, implementation_active_plan_ids: ["1", "2"] });
    expect(ofType(r.effects, "delete_file").map((e) => e.path)).toContain("08_completion/changes.md");
    expect(ofType(r.effects, "delete_matching").map((e) => e.dir)).toEqual(["04_planning", "06_implementation"]);
    // and a later plain resume of planning would use the planner template again
    const later = apply({ ...r.state, phase: "planning" }, ev.resume());
    expect(templates(later.effects)).toEqual(["04_planning/planner_prompt.md<-planner"]);
  });
});

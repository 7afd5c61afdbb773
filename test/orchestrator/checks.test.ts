import { describe, expect, test } from "bun:test";
import { prepareResume } from "../../src/orchestrator/resume.ts";
import type { Settings } from "../../src/orchestrator/types.ts";
import type { State } from "../../src/schema/state.ts";
import { apply, clock, drive, events, freshState, launched, liveAgents, makePlan, ofType, settings } from "./fixtures.ts";

const NO_FACTS = { pmDone: true, hasArchitecture: true, hasExecutionPlan: true, hasDesign: false };
const PLAN = makePlan([{ mode: "serial", plans: [1] }]);
const TEST = { command: "npm test", when: ["after_implementation" as const], required: true };
const LINT = { command: "npm run lint", when: ["after_coder" as const], required: false };

function withChecks(patch: Partial<Settings> = {}): Settings {
  return settings({ checks: { test: TEST, lint: LINT }, ...patch });
}

/** A run in `reviewing` right after its one coder's submit: reviewer_logic reads, the checks run. */
function toReview(s: Settings) {
  const ev = events(clock());
  const { state, effects } = drive(freshState(), [ev.start(), ev.arch(["reviewer_logic"]), ev.plan(PLAN), ev.done(1)], s);
  return { state, effects, ev };
}

const failing = {
  status: "failed" as const,
  exit_code: 1,
  failures: 1,
  findings: [{ check: "test", file: "src/part1.ts", line: 3, message: "expected 2, got 3" }],
  tail: ["not ok 1 - adds", "  expected 2, got 3"],
};

describe("checks as steps of a run", () => {
  test("the last coder's submit runs the after_coder and after_implementation checks in one batch, while the reviewer reads", () => {
    const { state, effects } = toReview(withChecks());
    expect(state.phase).toBe("reviewing");
    expect(ofType(effects, "run_checks")).toEqual([{ type: "run_checks", run: 1, when: "after_implementation", round: 0, names: ["test", "lint"] }]);
    expect(launched(effects)).toContain("reviewer_logic");
    expect(state.checks).toMatchObject([{ id: 1, round: 0, names: ["test", "lint"], results: {} }]);
  });

  test("a passing review waits for the checks; a failing required check starts a fix round with its findings", () => {
    const { state, ev } = toReview(withChecks());
    let r = apply(state, ev.review("reviewer_logic", "pass"), withChecks());
    expect(r.state).toMatchObject({ phase: "reviewing", awaiting_summary: false }); // no verdict yet
    r = apply(r.state, ev.checkStarted(1, "test"), withChecks());
    expect(r.state.checks![0]!.running).toHaveProperty("test");
    r = apply(r.state, ev.checkFinished(1, "lint", { required: false, status: "failed", exit_code: 2 }), withChecks());
    expect(r.state.phase).toBe("reviewing"); // an advisory failure decides nothing, and test is still running
    r = apply(r.state, ev.checkFinished(1, "test", failing), withChecks());
    expect(r.state).toMatchObject({ phase: "fixing", review_iteration: 1 });
    const fix = ofType(r.effects, "write_file").find((e) => e.path === "07_review/fix_request.md")!.content;
    expect(fix).toContain("## Check: test — failed (exit 1)");
    expect(fix).toContain("- Command: `npm run test`");
    expect(fix).toContain("  - src/part1.ts:3: expected 2, got 3");
    expect(fix).toContain("not ok 1 - adds");
    expect(fix).not.toContain("## Check: lint"); // advisory: reported, not the fixer's
    // the fixer's submit runs the round's checks again; a pass closes it
    r = apply(r.state, ev.done(1), withChecks());
    expect(ofType(r.effects, "run_checks")).toEqual([{ type: "run_checks", run: 2, when: "after_implementation", round: 1, names: ["test", "lint"] }]);
    r = apply(r.state, ev.review("reviewer_logic", "pass"), withChecks());
    r = apply(r.state, ev.checkFinished(2, "test"), withChecks());
    r = apply(r.state, ev.checkFinished(2, "lint", { required: false }), withChecks());
    expect(r.state).toMatchObject({ phase: "reviewing", awaiting_summary: true, last_event: "review_passed" });
    // the superseded failure keeps its counts, not its lines
    expect(r.state.checks![0]!.results.test).toMatchObject({ status: "failed", failures: 1 });
    expect(r.state.checks![0]!.results.test!.findings).toBeUndefined();
  });

  test("a failure already on the base blocks nothing and starts no fix round", () => {
    const { state, ev } = toReview(withChecks());
    let r = apply(state, ev.checkFinished(1, "test", { ...failing, pre_existing: true }), withChecks());
    r = apply(r.state, ev.checkFinished(1, "lint", { required: false }), withChecks());
    r = apply(r.state, ev.review("reviewer_logic", "pass"), withChecks());
    expect(r.state).toMatchObject({ phase: "reviewing", awaiting_summary: true, review_iteration: 0 });
  });

  test("a check the orchestrator died in runs again on resume, and its result counts once", () => {
    const { state, ev } = toReview(withChecks());
    let r = apply(state, ev.checkFinished(1, "lint", { required: false }), withChecks());
    r = apply(r.state, ev.checkStarted(1, "test"), withChecks());
    const resumed = prepareResume(r.state, NO_FACTS, "2024-01-01T01:00:00.000Z");
    r = apply(resumed, ev.resume(), withChecks());
    expect(ofType(r.effects, "run_checks")).toEqual([{ type: "run_checks", run: 1, when: "after_implementation", round: 0, names: ["test"] }]);
    expect(r.state.checks![0]!.running).toBeUndefined();
    r = apply(r.state, ev.checkFinished(1, "test", failing), withChecks());
    const once = r.state;
    // the first process's late report (or a replay) changes nothing
    r = apply(once, ev.checkFinished(1, "test"), withChecks());
    expect(r.state.checks).toEqual(once.checks);
    expect(ofType(r.effects, "log")[0]!.message).toContain("finished already");
  });

  test("before_commit checks run once the reviews passed, and block like any", () => {
    const s = withChecks({ checks: { e2e: { command: "make e2e", when: ["before_commit"], required: true } } });
    const { state, ev, effects } = toReview(s);
    expect(ofType(effects, "run_checks")).toEqual([]);
    let r = apply(state, ev.review("reviewer_logic", "pass"), s);
    expect(ofType(r.effects, "run_checks")).toEqual([{ type: "run_checks", run: 1, when: "before_commit", round: 0, names: ["e2e"] }]);
    expect(r.state.awaiting_summary).toBe(false);
    r = apply(r.state, ev.checkFinished(1, "e2e", failing), s);
    expect(r.state).toMatchObject({ phase: "fixing", review_iteration: 1 });
  });

  test("at the loop cap with nobody to approve, a failing required check fails the run even with commit_on_loop_cap", () => {
    const s = withChecks({ max_review_iterations: 0, skip_final_approval: true, commit_on_loop_cap: true });
    const { state, ev } = toReview(s);
    let r = apply(state, ev.review("reviewer_logic", "pass"), s);
    r = apply(r.state, ev.checkFinished(1, "lint", { required: false }), s);
    r = apply(r.state, ev.checkFinished(1, "test", failing), s);
    expect(r.state.phase).toBe("failed");
    expect(r.state.interruption_cause).toContain("required check(s) still failing: test");
    expect(r.state.review_loop_cap).toMatchObject({ decision: "fail", failing_checks: ["test"] });
    expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code: 1, cleanup: false }]);
  });

  test("checks_order before_reviewers: a failing check goes to the fixer before any reviewer starts", () => {
    const s = withChecks({ checks_order: "before_reviewers" });
    const { state, ev, effects } = toReview(s);
    expect(state.review_waits_for_checks).toBe(true);
    expect(launched(effects)).not.toContain("reviewer_logic");
    let r = apply(state, ev.checkFinished(1, "lint", { required: false }), s);
    r = apply(r.state, ev.checkFinished(1, "test", failing), s);
    expect(r.state).toMatchObject({ phase: "fixing", review_iteration: 1 });
    r = apply(r.state, ev.done(1), s);
    r = apply(r.state, ev.checkFinished(2, "lint", { required: false }), s);
    expect(liveAgents(r.state)).not.toContain("reviewer_logic");
    r = apply(r.state, ev.checkFinished(2, "test"), s);
    expect(launched(r.effects)).toEqual(["reviewer_logic"]);
  });

  test("a reviewer still reading is told when a required check fails", () => {
    const { state, ev } = toReview(withChecks());
    const r = apply(state, ev.checkFinished(1, "test", failing), withChecks());
    expect(ofType(r.effects, "notify_agent")).toMatchObject([{ agent: "reviewer_logic" }]);
    expect(ofType(r.effects, "notify_agent")[0]!.text).toContain("check test (npm run test): failed (exit 1), 1 failure(s)");
  });

  test("a change request clears the checks; ids are never reused", () => {
    const s = withChecks();
    const { state, ev } = toReview(s);
    let r = apply(state, ev.checkFinished(1, "test"), s);
    r = apply(r.state, ev.checkFinished(1, "lint", { required: false }), s);
    r = apply(r.state, ev.review("reviewer_logic", "pass"), s);
    r = apply(r.state, ev.summary(), s);
    r = apply(r.state, ev.changes(), s);
    expect(r.state.checks).toBeUndefined();
    r = drive(r.state, [ev.plan(PLAN), ev.done(1)], s);
    expect(ofType(r.effects, "run_checks").map((e) => e.run)).toEqual([2]);
    // a late report of the cleared batch counts for nothing
    const late: State = apply(r.state, ev.checkFinished(1, "test", failing), s).state;
    expect(late.checks).toEqual(r.state.checks);
  });
});

test("at the loop cap with someone to approve, the summary says which required check fails, not that a reviewer did", () => {
  const s = withChecks({ max_review_iterations: 0 });
  const { state, ev } = toReview(s);
  let r = apply(state, ev.review("reviewer_logic", "pass"), s);
  r = apply(r.state, ev.checkFinished(1, "lint", { required: false }), s);
  r = apply(r.state, ev.checkFinished(1, "test", failing), s);
  expect(r.state).toMatchObject({ phase: "completing", review_loop_cap: { decision: "ask", failing_checks: ["test"] } });
  const summaries = ofType(r.effects, "write_file").filter((e) => e.path === "08_completion/summary.md");
  const last = summaries.at(-1)!.content;
  expect(last).toContain("The review loop stopped after 0 fix round(s) with the required check test still failing");
  expect(last).not.toContain("without every reviewer passing");
  expect(last).toContain("## Checks\n\n");
  expect(last).toContain("\n- test: failed (exit 1)\n");
  expect(last).toContain("\n- lint: passed — advisory\n");
});

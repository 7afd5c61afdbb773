import { describe, expect, test } from "bun:test";
import { apply, core, killed, ofType, settings, written } from "./fixtures.ts";
import { reach } from "./reach.ts";

/** Events that arrive where they do not belong: each is refused with a log line and changes nothing. */
describe("refused and ignored events", () => {
  const logs = (effects: { type: string }[]) => ofType(effects as any, "log").map((e) => e.message);

  test("coder_done for a plan that is not in implementation_active_plan_ids", () => {
    const { state, ev } = reach("implementing");
    const r = apply(state, ev.done(3));
    expect(core(r.state)).toEqual(core(state));
    expect(logs(r.effects)).toEqual(["submit_done for plan 3 ignored: active plans are [1, 2]"]);
  });

  test("a duplicate coder_done is refused once the plan left the active set", () => {
    const { state, ev } = reach("implementing");
    const once = apply(state, ev.done(1));
    const twice = apply(once.state, ev.done(1));
    expect(core(twice.state)).toEqual(core(once.state));
    expect(written(twice.effects)).toEqual([]);
  });

  test("the fixer reports plan 1 only", () => {
    const { state, ev } = reach("fixing");
    const r = apply(state, ev.done(2));
    expect(r.state.phase).toBe("fixing");
    expect(core(r.state)).toEqual(core(state));
    expect(logs(r.effects)[0]).toMatch(/plan 2 ignored while fixing/);
  });

  test("review_submitted from a reviewer that was not nominated", () => {
    const { state, ev } = reach("reviewing");
    const r = apply(state, ev.review("reviewer_expert", "fail"));
    expect(core(r.state)).toEqual(core(state));
    expect(logs(r.effects)).toEqual(["submit_review from reviewer_expert ignored: not nominated"]);
  });

  test("review_submitted from a reviewer that already answered this round", () => {
    const { state, ev } = reach("reviewing");
    const first = apply(state, ev.review("reviewer_quality", "pass"));
    expect(killed(first.effects)).toEqual(["reviewer_quality"]);
    const again = apply(first.state, ev.review("reviewer_quality", "fail"));
    expect(core(again.state)).toEqual(core(first.state));
    expect(logs(again.effects)).toEqual(["submit_review from reviewer_quality ignored: already completed"]);
  });

  test("summary_written while no summary is awaited, and a second summary after the first", () => {
    const { state, ev } = reach("reviewing");
    expect(apply(state, ev.summary()).effects).toEqual([]);
    let s = apply(state, ev.review("reviewer_logic", "pass")).state;
    s = apply(s, ev.review("reviewer_quality", "pass")).state;
    expect(s.awaiting_summary).toBe(true);
    const done = apply(s, ev.summary());
    expect(done.state.phase).toBe("completing");
    expect(done.state.awaiting_summary).toBe(false);
  });

  test("approval after approval does not commit twice; changes after approval are ignored", () => {
    const { state, ev } = reach("completing");
    const first = apply(state, ev.approve());
    expect(ofType(first.effects, "commit").length).toBe(1);
    const second = apply(first.state, ev.approve("other message"));
    expect(second.effects).toEqual([]);
    expect(core(second.state)).toEqual(core(first.state));
    const changes = apply(first.state, ev.changes());
    expect(changes.state.phase).toBe("completing");
    expect(logs(changes.effects)).toEqual(["changes.md ignored: the run was already approved"]);
  });

  test("a pane the orchestrator closed on purpose is not an interruption", () => {
    const { state, ev } = reach("implementing");
    const r1 = apply(state, ev.done(1)); // coder:1 is killed
    const r2 = apply(r1.state, ev.paneExited("coder:1"));
    expect(r2.state.phase).toBe("implementing");
    expect(r2.effects).toEqual([]);
    const unknown = apply(r1.state, ev.paneExited("nobody"));
    expect(unknown.state.phase).toBe("implementing");
  });

  test("agent_stuck / agent_active for finished agents change nothing; active clears a stuck note", () => {
    const { state, ev } = reach("planning");
    expect(core(apply(state, ev.stuck("architect")).state)).toEqual(core(state));
    const stuck = apply(state, ev.stuck("planner")).state;
    expect(stuck.agents!.planner!.status).toBe("stuck");
    const active = apply(stuck, ev.active("planner")).state;
    expect(active.agents!.planner).toMatchObject({ status: "working" });
    expect(active.agents!.planner!.note).toBeUndefined();
    // a working agent reported active again keeps its `since`
    expect(apply(active, ev.active("planner")).state.agents!.planner!.since).toBe(active.agents!.planner!.since);
  });

  test("every event in done and failed is a no-op returning the same state", () => {
    for (const phase of ["done", "failed"] as const) {
      const { state, ev } = reach(phase);
      for (const e of [ev.start(), ev.resume(), ev.cancel(), ev.committed(), ev.done(1), ev.approve()]) {
        const r = apply(state, e, settings());
        expect(r.state).toBe(state);
        expect(r.effects).toEqual([]);
      }
    }
  });
});

import { describe, expect, test } from "bun:test";
import type { Event } from "../../src/schema/events.ts";
import { apply, ofType, written } from "./fixtures.ts";
import { STD_PLAN, reach } from "./reach.ts";

/** coder_done as the tool line would bring it, with the artifact's status. */
const done = (n: number, status: "SUCCESS" | "PARTIAL" | "FAILED", at: string): Event => ({
  type: "coder_done",
  at,
  subplan_index: n,
  artifact: {
    status,
    tasks_completed: status === "FAILED" ? [] : [`write src/part${n}.ts`],
    files_created: [],
    files_modified: [],
    tests: { files: 0, cases: 0 },
  },
});

describe("the verification gate when the orchestrator applies a submit_done line", () => {
  test("FAILED is never recorded: no marker, no audit line, no check-offs; the coder is told what to do", () => {
    const { state, ev } = reach("implementing"); // plans 1 and 2 run in parallel
    const r = apply(state, done(1, "FAILED", ev.start().at));
    expect(r.state.completed_subplans).toEqual([]);
    expect(r.state.implementation_active_plan_ids).toEqual(["1", "2"]);
    expect(written(r.effects)).toEqual([]);
    expect(ofType(r.effects, "append_file")).toEqual([]);
    expect(ofType(r.effects, "check_off_tasks")).toEqual([]);
    expect(ofType(r.effects, "kill_agent")).toEqual([]);
    expect(ofType(r.effects, "notify_agent")).toEqual([
      {
        type: "notify_agent",
        agent: "coder:1",
        text: 'submit_done for plan 1 was not accepted: 06_implementation/done_1.json status is "FAILED": submit_done records finished work only. Finish the tasks of plan 1 and make the tests pass, then set "status": "SUCCESS" and call submit_done again. If something you cannot fix blocks you, do not call submit_done: say what blocks you and wait for the user.',
      },
    ]);
    // the coder finishes and submits SUCCESS: now it counts
    const ok = apply(r.state, ev.done(1));
    expect(ok.state.completed_subplans).toEqual(["1"]);
  });

  test("PARTIAL is recorded (and audited as PARTIAL) only for a sub-plan whose plan entry says allow_partial", () => {
    const plan = structuredClone(STD_PLAN);
    plan.subplans[1]!.allow_partial = true;
    const { state, ev } = reach("planning");
    const planned = apply(state, ev.plan(plan)).state;
    expect(planned.execution_groups![0]!.plans).toEqual([
      { index: 1, name: "part 1" },
      { index: 2, name: "part 2", allow_partial: true },
    ]);

    const refused = apply(planned, done(1, "PARTIAL", ev.start().at));
    expect(refused.state.completed_subplans).toEqual([]);
    expect(ofType(refused.effects, "notify_agent")[0]!.text).toContain('status is "PARTIAL", but plan 1 does not allow a partial result');

    const allowed = apply(planned, done(2, "PARTIAL", ev.start().at));
    expect(allowed.state.completed_subplans).toEqual(["2"]);
    expect(ofType(allowed.effects, "append_file")[0]!.content).toMatch(/ plan 2 PARTIAL: 1 tasks/);
  });

  test("a fix round accepts neither FAILED nor PARTIAL", () => {
    const { state, ev } = reach("fixing");
    for (const status of ["FAILED", "PARTIAL"] as const) {
      const r = apply(state, done(1, status, ev.start().at));
      expect(r.state.phase).toBe("fixing");
      expect(ofType(r.effects, "notify_agent").map((n) => n.agent)).toEqual(["coder"]);
      expect(ofType(r.effects, "notify_agent")[0]!.text).toContain("Address every finding of 07_review/fix_request.md");
    }
  });
});

/**
 * #28: a failed run whose state has no history (the Python agentmux writes none) resumes where
 * its artifacts say, walking forward (inventory §9.3), and takes the plan's groups from plan.yaml.
 */
import { describe, expect, test } from "bun:test";
import { inferResumePhase, prepareResume, type ResumeFacts } from "../../src/orchestrator/resume.ts";
import type { State } from "../../src/schema/state.ts";
import { freshState, makePlan } from "./fixtures.ts";

const plan = makePlan([{ mode: "parallel", plans: [1, 2] }]);
const failed = (patch: Partial<State> = {}): State => ({ ...freshState(), phase: "failed", last_event: "run_canceled", history: [], ...patch });
const facts = (patch: Partial<ResumeFacts> = {}): ResumeFacts => ({
  pmDone: false,
  hasArchitecture: true,
  hasExecutionPlan: true,
  hasDesign: false,
  plan,
  doneMarkers: [],
  ...patch,
});

describe("forward inference without history", () => {
  const cases: [string, Partial<State>, Partial<ResumeFacts>, State["phase"]][] = [
    ["nothing written", {}, { hasArchitecture: false, hasExecutionPlan: false, plan: undefined }, "architecting"],
    ["architecture only", {}, { hasExecutionPlan: false, plan: undefined }, "planning"],
    ["plan.yaml but no execution plan", {}, { hasExecutionPlan: false }, "planning"],
    ["a design the plan needs is missing", {}, { plan: makePlan([{ mode: "serial", plans: [1] }], true) }, "designing"],
    ["one of two plans done", {}, { doneMarkers: [1] }, "implementing"],
    ["both plans done, no review", {}, { doneMarkers: [1, 2] }, "reviewing"],
    ["both plans done (state's own record), no review", { completed_subplans: ["1", "2"] }, {}, "reviewing"],
    ["reviewed", {}, { doneMarkers: [1, 2], hasReview: true }, "completing"],
    ["a fix round whose fixer did not finish", { review_iteration: 1 }, { hasFixRequest: true, hasReview: true }, "fixing"],
    ["a fix round whose fixer finished", { review_iteration: 1 }, { hasFixRequest: true, hasReview: true, doneMarkers: [1] }, "reviewing"],
  ];
  for (const [name, state, f, phase] of cases) test(`${name} → ${phase}`, () => expect(inferResumePhase(failed(state), facts(f))).toBe(phase));

  test("with history, a failed run still resumes in the phase it failed in (no forward walk)", () => {
    const s = failed({ history: [{ phase: "implementing", event: "plan_written", at: "2024-01-01T00:00:00Z" }], execution_groups: [] });
    expect(inferResumePhase(s, facts({ doneMarkers: [1, 2], hasReview: true }))).toBe("implementing");
  });

  test("resumed past planning, the state gets the plan's groups and the done plans", () => {
    const next = prepareResume(failed(), facts({ doneMarkers: [1] }), "2024-01-02T00:00:00Z");
    expect(next.phase).toBe("implementing");
    expect(next.execution_groups).toEqual([
      {
        group_id: "g1",
        mode: "parallel",
        plans: [
          { index: 1, name: "part 1" },
          { index: 2, name: "part 2" },
        ],
      },
    ]);
    expect(next.completed_subplans).toEqual(["1"]);
    expect(next.subplan_count).toBe(2);
  });
});

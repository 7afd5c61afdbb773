import { describe, expect, test } from "bun:test";
import type { Event } from "../../src/schema/events.ts";
import type { State } from "../../src/schema/state.ts";
import { upcomingAgents } from "../../src/orchestrator/upcoming.ts";
import { apply, clock, events, freshState, launched, makePlan, settings } from "./fixtures.ts";

const names = (s: State) => upcomingAgents(s).map((u) => `${u.agent}/${u.role}`);

/**
 * Drive a run event by event; at every step, whatever upcomingAgents predicted must be exactly
 * what the next phase change launches (never a pre-start the run does not take over).
 */
function checkPredictions(evs: Event[], productManager = false): string[][] {
  const s = settings({ skip_final_approval: true });
  let st = freshState({ productManager });
  const seen: string[][] = [];
  for (const e of evs) {
    const predicted = upcomingAgents(st);
    const r = apply(st, e, s);
    const moved = r.state.phase !== st.phase || r.state.implementation_group_index !== st.implementation_group_index;
    if (moved && predicted.length) {
      // the phase (or the implementation group) changed: every predicted agent is launched by it, with the predicted role
      const launches = r.effects.filter((x) => x.type === "launch_agent") as Extract<(typeof r.effects)[number], { type: "launch_agent" }>[];
      for (const p of predicted) expect(launches.find((l) => l.agent === p.agent)?.role).toBe(p.role);
    }
    seen.push(names(r.state));
    st = r.state;
  }
  return seen;
}

describe("upcomingAgents: the next phase's agents, only when certain", () => {
  test("PM → architect, architect → planner; nothing while planning (the plan decides the coders)", () => {
    const ev = events(clock());
    const seen = checkPredictions([ev.start(), ev.pm(), ev.arch(["reviewer_logic", "reviewer_quality"]), ev.plan(makePlan([{ mode: "serial", plans: [1] }]))], true);
    expect(seen[0]).toEqual(["architect/architect"]);
    expect(seen[1]).toEqual(["planner/planner"]);
    expect(seen[2]).toEqual([]); // planning
    // implementing its only (last) group: the nominated reviewers
    expect(seen[3]).toEqual(["reviewer_logic/reviewer_logic", "reviewer_quality/reviewer_quality"]);
  });

  test("parallel then serial groups: the next group's coder while the first works, reviewers once the last group runs; a fix round predicts the next review round", () => {
    const ev = events(clock());
    const plan = makePlan([{ mode: "parallel", plans: [1, 2] }, { mode: "serial", plans: [3] }]);
    const seen = checkPredictions([
      ev.start(), ev.arch(), ev.plan(plan),
      ev.done(1), ev.done(2), // → group 2
      ev.done(3), // → reviewing
      ev.review("reviewer_logic", "fail"), // → fixing
      ev.done(1), // → reviewing round 2
      ev.review("reviewer_logic", "pass"), // → summary
    ]);
    expect(seen[2]).toEqual(["coder/coder"]); // group 1 of 2: group 2's serial coder
    expect(seen[3]).toEqual(["coder/coder"]);
    expect(seen[4]).toEqual(["reviewer_logic/reviewer_logic"]); // group 2 of 2 (the last)
    expect(seen[5]).toEqual([]); // reviewing: a verdict decides what comes next
    expect(seen[6]).toEqual(["reviewer_logic/reviewer_logic"]); // fixing
    expect(seen[7]).toEqual([]);
    expect(seen[8]).toEqual([]); // awaiting the summary
  });

  test("serial then parallel groups: group 2's parallel coders while the serial coder works; none while the last group runs", () => {
    const ev = events(clock());
    const plan = makePlan([{ mode: "serial", plans: [1] }, { mode: "parallel", plans: [2, 3] }]);
    const seen = checkPredictions([ev.start(), ev.arch(), ev.plan(plan), ev.done(1), ev.done(2), ev.done(3)]);
    expect(seen[2]).toEqual(["coder:2/coder", "coder:3/coder"]);
    expect(seen[3]).toEqual(["reviewer_logic/reviewer_logic"]); // group 2 of 2 (the last)
    expect(seen[4]).toEqual(["reviewer_logic/reviewer_logic"]);
  });

  test("an agent already live is never predicted, and an ended run predicts nothing", () => {
    const ev = events(clock());
    const s = settings({ skip_final_approval: true });
    const st = apply(apply(freshState(), ev.start(), s).state, ev.arch(), s).state;
    expect(names(st)).toEqual([]);
    const live = { ...st, phase: "architecting" as const, agents: { ...st.agents, planner: { ...st.agents!.planner!, status: "working" as const } } };
    expect(names(live)).toEqual([]);
    expect(names({ ...st, phase: "failed" })).toEqual([]);
    expect(launched(apply(st, ev.cancel(), s).effects)).toEqual([]);
  });
});

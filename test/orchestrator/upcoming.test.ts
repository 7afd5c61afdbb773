import { describe, expect, test } from "bun:test";
import type { Event } from "../../src/schema/events.ts";
import type { State } from "../../src/schema/state.ts";
import type { Role } from "../../src/schema/catalog.ts";
import type { Settings } from "../../src/orchestrator/types.ts";
import { upcomingAgents } from "../../src/orchestrator/upcoming.ts";
import { apply, clock, events, freshState, launched, makePlan, settings } from "./fixtures.ts";

const names = (s: State, st: Settings = settings()) =>
  upcomingAgents(s, st).map((u) => `${u.agent ?? "(by role)"}/${u.role}${u.beforeVerdict ? " before the verdict" : ""}`);

/**
 * Drive a run event by event; at every step, whatever upcomingAgents predicted must be what the
 * next phase change launches (never a pre-start the run does not take over): an agent predicted by
 * key is launched under that key and role; one predicted by role is taken by a launch of that role
 * once the implementation starts; the fixer predicted before the verdict, when the verdict fails.
 */
function checkPredictions(evs: Event[], o: { productManager?: boolean; settings?: Partial<Settings> } = {}): string[][] {
  const s = settings({ skip_final_approval: true, ...o.settings });
  let st = freshState({ productManager: o.productManager ?? false });
  const seen: string[][] = [];
  let byRole: Role[] = [];
  for (const e of evs) {
    const predicted = upcomingAgents(st, s);
    const r = apply(st, e, s);
    const launches = r.effects.filter((x) => x.type === "launch_agent") as Extract<(typeof r.effects)[number], { type: "launch_agent" }>[];
    const moved = r.state.phase !== st.phase || r.state.implementation_group_index !== st.implementation_group_index;
    if (moved) {
      for (const p of predicted) {
        if (p.agent === null) continue;
        if (p.beforeVerdict && r.state.phase !== "fixing") continue;
        expect(launches.find((l) => l.agent === p.agent)?.role).toBe(p.role);
      }
    }
    // coders predicted by role: the implementation's first launches are of that role
    byRole = [...byRole, ...predicted.filter((p) => p.agent === null && !byRole.includes(p.role)).map((p) => p.role)];
    if (r.state.phase === "implementing" && st.phase !== "implementing" && byRole.length) {
      for (const role of byRole) expect(launches.some((l) => l.role === role)).toBe(true);
      byRole = [];
    }
    seen.push(names(r.state, s));
    st = r.state;
  }
  return seen;
}

describe("upcomingAgents: the next phase's agents", () => {
  test("PM → architect, architect → planner; coders by role while planning (the plan names them)", () => {
    const ev = events(clock());
    const seen = checkPredictions([ev.start(), ev.pm(), ev.arch(["reviewer_logic", "reviewer_quality"]), ev.plan(makePlan([{ mode: "serial", plans: [1] }]))], {
      productManager: true,
    });
    expect(seen[0]).toEqual(["architect/architect"]);
    expect(seen[1]).toEqual(["planner/planner"]);
    expect(seen[2]).toEqual(["(by role)/coder", "(by role)/coder"]); // planning
    // implementing its only (last) group: the nominated reviewers
    expect(seen[3]).toEqual(["reviewer_logic/reviewer_logic", "reviewer_quality/reviewer_quality"]);
  });

  test("with a single coder the planner's successor is known by key; while the designer works, the first group's coders by key", () => {
    const ev = events(clock());
    expect(checkPredictions([ev.start(), ev.arch()], { settings: { single_coder: true } })[1]).toEqual(["coder/coder"]);
    const plan = makePlan(
      [
        { mode: "parallel", plans: [1, 2] },
        { mode: "serial", plans: [3] },
      ],
      true,
    );
    const seen = checkPredictions([ev.start(), ev.arch(), ev.plan(plan), ev.design()]);
    expect(seen[2]).toEqual(["coder:1/coder", "coder:2/coder"]); // designing
  });

  test("parallel then serial groups: the next group's coder while the first works, reviewers once the last group runs; the fixer during a review round; a fix round predicts the next review round", () => {
    const ev = events(clock());
    const plan = makePlan([
      { mode: "parallel", plans: [1, 2] },
      { mode: "serial", plans: [3] },
    ]);
    const seen = checkPredictions([
      ev.start(),
      ev.arch(),
      ev.plan(plan),
      ev.done(1),
      ev.done(2), // → group 2
      ev.done(3), // → reviewing
      ev.review("reviewer_logic", "fail"), // → fixing
      ev.done(1), // → reviewing round 2
      ev.review("reviewer_logic", "pass"), // → summary
    ]);
    expect(seen[1]).toEqual(["(by role)/coder", "(by role)/coder"]);
    expect(seen[2]).toEqual(["coder/coder"]); // group 1 of 2: group 2's serial coder
    expect(seen[3]).toEqual(["coder/coder"]);
    expect(seen[4]).toEqual(["reviewer_logic/reviewer_logic"]); // group 2 of 2 (the last)
    expect(seen[5]).toEqual(["coder/coder before the verdict"]); // reviewing: the fixer, if the verdict fails
    expect(seen[6]).toEqual(["reviewer_logic/reviewer_logic"]); // fixing
    expect(seen[7]).toEqual(["coder/coder before the verdict"]);
    expect(seen[8]).toEqual([]); // awaiting the summary
  });

  test("no fixer before the verdict at the loop cap: a failing verdict then ends the fix rounds", () => {
    const ev = events(clock());
    const seen = checkPredictions(
      [ev.start(), ev.arch(), ev.plan(makePlan([{ mode: "serial", plans: [1] }])), ev.done(1), ev.review("reviewer_logic", "fail"), ev.done(1)],
      { settings: { max_review_iterations: 1 } },
    );
    expect(seen[3]).toEqual(["coder/coder before the verdict"]); // round 1 of 1
    expect(seen[5]).toEqual([]); // round 2: the cap is reached, a fail goes to completing
  });

  test("serial then parallel groups: group 2's parallel coders while the serial coder works; none while the last group runs", () => {
    const ev = events(clock());
    const plan = makePlan([
      { mode: "serial", plans: [1] },
      { mode: "parallel", plans: [2, 3] },
    ]);
    const seen = checkPredictions([ev.start(), ev.arch(), ev.plan(plan), ev.done(1), ev.done(2), ev.done(3)]);
    expect(seen[2]).toEqual(["coder:2/coder", "coder:3/coder"]);
    expect(seen[3]).toEqual(["reviewer_logic/reviewer_logic"]); // group 2 of 2 (the last)
    expect(seen[4]).toEqual(["reviewer_logic/reviewer_logic"]);
  });

  test("an agent already live is never predicted, and an ended run predicts nothing", () => {
    const ev = events(clock());
    const s = settings({ skip_final_approval: true });
    const st = apply(apply(freshState(), ev.start(), s).state, ev.arch(), s).state;
    const live = { ...st, phase: "architecting" as const, agents: { ...st.agents, planner: { ...st.agents!.planner!, status: "working" as const } } };
    expect(names(live)).toEqual([]);
    expect(names({ ...st, phase: "failed" })).toEqual([]);
    expect(launched(apply(st, ev.cancel(), s).effects)).toEqual([]);
  });
});

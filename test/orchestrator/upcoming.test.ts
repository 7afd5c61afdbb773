import { describe, expect, test } from "bun:test";
import type { Event } from "../../src/schema/events.ts";
import type { State } from "../../src/schema/state.ts";
import type { Role } from "../../src/schema/catalog.ts";
import type { Settings } from "../../src/orchestrator/types.ts";
import { upcomingAgents } from "../../src/orchestrator/upcoming.ts";
import { apply, clock, events, freshState, launched, makePlan, settings } from "./fixtures.ts";

const names = (s: State, st: Settings = settings()) =>
  upcomingAgents(s, st).map((u) => `${u.agent ?? "(by role)"}/${u.role}${u.beforeVerdict ? " before the verdict" : ""}${u.spare ? " spare" : ""}`);

type Launch = { agent: string; role: Role };

/**
 * Drive a run event by event; at every step, each agent upcomingAgents predicted must be launched
 * by this step under the key and role predicted (a coder by role: by a launch of that role), or
 * still be predicted after it (its phase has not come yet): a pre-start is never closed unused
 * unless it was one the run only may need (a spare coder, the fixer before the verdict) and the
 * run went the other way. Returns the predictions after each step.
 */
function checkPredictions(evs: Event[], o: { productManager?: boolean; settings?: Partial<Settings> } = {}): string[][] {
  const s = settings({ skip_final_approval: true, ...o.settings });
  let st = freshState({ productManager: o.productManager ?? false });
  const seen: string[][] = [];
  for (const e of evs) {
    const predicted = upcomingAgents(st, s);
    const r = apply(st, e, s);
    const launches = r.effects.filter((x) => x.type === "launch_agent") as Launch[];
    const after = upcomingAgents(r.state, s);
    const free = [...launches];
    for (const p of predicted.filter((x) => x.agent !== null)) {
      const at = free.findIndex((l) => l.agent === p.agent);
      if (at >= 0) expect(free.splice(at, 1)[0]!.role).toBe(p.role);
      else if (!p.beforeVerdict) expect(after.some((a) => a.agent === p.agent && a.role === p.role)).toBe(true);
    }
    for (const p of predicted.filter((x) => x.agent === null)) {
      const at = free.findIndex((l) => l.role === p.role);
      if (at >= 0) free.splice(at, 1);
      else if (!p.spare && !p.beforeVerdict) expect(after.some((a) => a.role === p.role)).toBe(true);
    }
    seen.push(names(r.state, s));
    st = r.state;
  }
  return seen;
}

describe("upcomingAgents: the coming phases' agents, nearest first", () => {
  test("PM → the architect, the planner and the coders; the architect → the planner and coders by role (the plan names them); the planner → the coders and the nominated reviewers", () => {
    const ev = events(clock());
    const seen = checkPredictions([ev.start(), ev.pm(), ev.arch(["reviewer_logic", "reviewer_quality"]), ev.plan(makePlan([{ mode: "serial", plans: [1] }]))], {
      productManager: true,
    });
    expect(seen[0]).toEqual(["architect/architect", "planner/planner", "(by role)/coder", "(by role)/coder spare"]);
    // the reviewers are the architect's to nominate: none predicted before its submit
    expect(seen[1]).toEqual(["planner/planner", "(by role)/coder", "(by role)/coder spare"]);
    // planning: the coder every plan needs and the reviewers first, a second coder (a parallel plan) last
    expect(seen[2]).toEqual(["(by role)/coder", "reviewer_logic/reviewer_logic", "reviewer_quality/reviewer_quality", "(by role)/coder spare"]);
    // implementing its only (last) group: the nominated reviewers, then the fixer (the working coder holds its key: by role)
    expect(seen[3]).toEqual(["reviewer_logic/reviewer_logic", "reviewer_quality/reviewer_quality", "(by role)/coder before the verdict"]);
  });

  test("with a single coder the coder is known by key from the architect on; while the designer works, the first group's coders by key", () => {
    const ev = events(clock());
    const single = checkPredictions([ev.start(), ev.arch()], { settings: { single_coder: true } });
    expect(single[0]).toEqual(["planner/planner", "coder/coder"]);
    expect(single[1]).toEqual(["coder/coder", "reviewer_logic/reviewer_logic"]);
    const plan = makePlan(
      [
        { mode: "parallel", plans: [1, 2] },
        { mode: "serial", plans: [3] },
      ],
      true,
    );
    const seen = checkPredictions([ev.start(), ev.arch(), ev.plan(plan), ev.design()]);
    expect(seen[2]).toEqual(["coder:1/coder", "coder:2/coder", "reviewer_logic/reviewer_logic"]); // designing
  });

  test("parallel then serial groups: the next group's coder and the reviewers while the first works; the fixer from the last group on; a fix round predicts the next review round and its fixer", () => {
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
    expect(seen[1]).toEqual(["(by role)/coder", "reviewer_logic/reviewer_logic", "(by role)/coder spare"]);
    // group 1 of 2: group 2's serial coder, the reviewer; the fixer's key is that coder's: predicted once, as the coder
    expect(seen[2]).toEqual(["coder/coder", "reviewer_logic/reviewer_logic"]);
    expect(seen[3]).toEqual(["coder/coder", "reviewer_logic/reviewer_logic"]);
    expect(seen[4]).toEqual(["reviewer_logic/reviewer_logic", "(by role)/coder before the verdict"]); // group 2 of 2 (the last)
    // reviewing: the fixer and the next round's reviewer (by role: this round's holds its key), if the verdict fails
    expect(seen[5]).toEqual(["coder/coder before the verdict", "(by role)/reviewer_logic before the verdict"]);
    expect(seen[6]).toEqual(["reviewer_logic/reviewer_logic", "(by role)/coder before the verdict"]); // fixing: round 2 and its fixer
    expect(seen[7]).toEqual(["coder/coder before the verdict", "(by role)/reviewer_logic before the verdict"]);
    expect(seen[8]).toEqual([]); // awaiting the summary
  });

  test("no fixer before the verdict at the loop cap: a failing verdict then ends the fix rounds", () => {
    const ev = events(clock());
    const seen = checkPredictions(
      [ev.start(), ev.arch(), ev.plan(makePlan([{ mode: "serial", plans: [1] }])), ev.done(1), ev.review("reviewer_logic", "fail"), ev.done(1)],
      { settings: { max_review_iterations: 1 } },
    );
    expect(seen[3]).toEqual(["coder/coder before the verdict", "(by role)/reviewer_logic before the verdict"]); // round 1 of 1
    expect(seen[4]).toEqual(["reviewer_logic/reviewer_logic"]); // fixing: round 2 is the last, no fixer after it
    expect(seen[5]).toEqual([]); // round 2: the cap is reached, a fail goes to completing
  });

  test("serial then parallel groups: group 2's parallel coders, then the reviewers, while the serial coder works", () => {
    const ev = events(clock());
    const plan = makePlan([
      { mode: "serial", plans: [1] },
      { mode: "parallel", plans: [2, 3] },
    ]);
    const seen = checkPredictions([ev.start(), ev.arch(), ev.plan(plan), ev.done(1), ev.done(2), ev.done(3)]);
    expect(seen[2]).toEqual(["coder:2/coder", "coder:3/coder", "reviewer_logic/reviewer_logic", "(by role)/coder before the verdict"]);
    expect(seen[3]).toEqual(["reviewer_logic/reviewer_logic", "coder/coder before the verdict"]); // group 2 of 2 (the last)
    expect(seen[4]).toEqual(["reviewer_logic/reviewer_logic", "coder/coder before the verdict"]);
  });

  test("every agent after the architect is predicted from the phase before the one before its own: a phase shorter than its CLI's start still finds it started", () => {
    const ev = events(clock());
    const seen = checkPredictions([
      ev.start(),
      ev.arch(),
      ev.plan(makePlan([{ mode: "serial", plans: [1] }])),
      ev.done(1),
      ev.review("reviewer_logic", "fail"),
    ]);
    // while the architect works: the planner and the coder; while the planner works: the reviewer; while the coder works: the fixer
    expect(seen[0].some((n) => n.startsWith("(by role)/coder"))).toBe(true);
    expect(seen[1]).toContain("reviewer_logic/reviewer_logic");
    expect(seen[2]).toContain("(by role)/coder before the verdict");
  });

  test("an agent already live is never predicted, and an ended run predicts nothing", () => {
    const ev = events(clock());
    const s = settings({ skip_final_approval: true });
    const st = apply(apply(freshState(), ev.start(), s).state, ev.arch(), s).state;
    const live = { ...st, phase: "architecting" as const, agents: { ...st.agents, planner: { ...st.agents!.planner!, status: "working" as const } } };
    expect(names(live)).toEqual(["(by role)/coder", "(by role)/coder spare"]);
    expect(names({ ...st, phase: "failed" })).toEqual([]);
    expect(launched(apply(st, ev.cancel(), s).effects)).toEqual([]);
  });
});

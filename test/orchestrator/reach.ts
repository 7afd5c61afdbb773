import type { Phase } from "../../src/schema/catalog.ts";
import type { Event } from "../../src/schema/events.ts";
import type { State } from "../../src/schema/state.ts";
import type { Settings } from "../../src/orchestrator/types.ts";
import { clock, drive, events, freshState, makePlan, settings, type Events } from "./fixtures.ts";

/** The standard plan of the fixtures: a parallel group (plans 1, 2) then a serial group (plan 3). */
export const STD_PLAN = makePlan([
  { mode: "parallel", plans: [1, 2] },
  { mode: "serial", plans: [3] },
]);

/** The events that take a fresh run (no PM) to each phase, reviewers logic + quality nominated. */
function pathTo(phase: Phase, ev: Events): { pm: boolean; evs: Event[] } {
  const toPlanning = [ev.start(), ev.arch(["reviewer_logic", "reviewer_quality"])];
  const toImplementing = [...toPlanning, ev.plan(STD_PLAN)];
  const toReviewing = [...toImplementing, ev.done(1), ev.done(2), ev.done(3)];
  const toCompleting = [...toReviewing, ev.review("reviewer_logic", "pass", "feat: rate limiting"), ev.review("reviewer_quality", "pass"), ev.summary()];
  switch (phase) {
    case "product_management":
      return { pm: true, evs: [ev.start()] };
    case "architecting":
      return { pm: false, evs: [ev.start()] };
    case "planning":
      return { pm: false, evs: toPlanning };
    case "designing":
      return { pm: false, evs: [...toPlanning, ev.plan(makePlan([{ mode: "serial", plans: [1] }], true))] };
    case "implementing":
      return { pm: false, evs: toImplementing };
    case "reviewing":
      return { pm: false, evs: toReviewing };
    case "fixing":
      return { pm: false, evs: [...toReviewing, ev.review("reviewer_logic", "fail"), ev.review("reviewer_quality", "pass")] };
    case "completing":
      return { pm: false, evs: toCompleting };
    case "done":
      return { pm: false, evs: [...toCompleting, ev.approve(), ev.committed()] };
    case "failed":
      return { pm: false, evs: [ev.start(), ev.cancel()] };
  }
}

/** A state really reached by transitions (never hand-assembled), plus the clock's event builders. */
export function reach(phase: Phase, s: Settings = settings()): { state: State; ev: Events; s: Settings } {
  const ev = events(clock());
  const { pm, evs } = pathTo(phase, ev);
  const { state } = drive(freshState({ productManager: pm }), evs, s);
  if (state.phase !== phase) throw new Error(`fixture did not reach ${phase} (got ${state.phase})`);
  return { state, ev, s };
}

/** The agent that has a live pane in each phase of `reach` (none once completing). */
export const LIVE_AGENT: Record<Phase, string | null> = {
  product_management: "product-manager",
  architecting: "architect",
  planning: "planner",
  designing: "designer",
  implementing: "coder:1",
  reviewing: "reviewer_logic",
  fixing: "coder",
  completing: null,
  done: null,
  failed: null,
};

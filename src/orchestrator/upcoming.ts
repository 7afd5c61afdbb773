import { REVIEWER_ROLES, parallelCoderKey, type ReviewerRole, type Role } from "../schema/catalog.ts";
import { agentLive, type State } from "../schema/state.ts";
import type { Settings } from "./types.ts";

/**
 * An agent a coming phase will launch, under the key and role that phase will use; `agent` null:
 * only its role is known yet (the coders before the plan is in: the plan names them), and the
 * first launch of that role takes it. `beforeVerdict`: the fixer before a review round's verdict,
 * wanted only if the verdict fails (config `prestart.fixer`). `spare`: a coder by role beyond the
 * first, wanted only if the plan runs more than one coder at once.
 */
export type UpcomingAgent = { agent: string | null; role: Role; beforeVerdict?: true; spare?: true };

/** How many coders are started by role while the plan is written: a first group runs one coder or a few in parallel. */
export const CODERS_BEFORE_PLAN = 2;

/** The fixer is always a fresh "coder" (phases/fixing.ts); while that key is a live coder, by role. */
const FIXER = "coder";

/**
 * The coders of the implementation group after the one that works: the plan names them once
 * it is in (parallel coders by plan index, else the one serial coder). Nothing while the
 * current group is the last.
 */
function nextGroupCoders(s: State): UpcomingAgent[] {
  const next = (s.execution_groups ?? []).slice(s.implementation_group_index).find((g) => g.plans.some((p) => !s.completed_subplans.includes(String(p.index))));
  if (!next) return [];
  const pending = next.plans.filter((p) => !s.completed_subplans.includes(String(p.index)));
  if (next.mode === "parallel" && pending.length > 1) return pending.map((p) => ({ agent: parallelCoderKey(p.index), role: "coder" }));
  return [{ agent: "coder", role: "coder" }];
}

function reviewers(s: State): UpcomingAgent[] {
  const n = (s.reviewer_nominations ?? []).filter((r) => (REVIEWER_ROLES as readonly string[]).includes(r)) as ReviewerRole[];
  return (n.length ? n : (["reviewer_logic"] as ReviewerRole[])).map((r) => ({ agent: r, role: r }));
}

/** The first implementation group's coders, before the plan names them: one by key with a single coder, else by role. */
function codersBeforePlan(settings: Pick<Settings, "single_coder">): UpcomingAgent[] {
  if (settings.single_coder) return [{ agent: "coder", role: "coder" }];
  return Array.from({ length: CODERS_BEFORE_PLAN }, (_, i) => ({ agent: null, role: "coder" as const, ...(i > 0 ? { spare: true as const } : {}) }));
}

/** The fixer, should the review round coming or under way fail (none at the loop cap: a failing verdict then ends the fix rounds). */
function fixer(s: State, settings: Pick<Settings, "max_review_iterations">, round: number): UpcomingAgent[] {
  if (round >= settings.max_review_iterations) return [];
  return [{ agent: agentLive(s.agents?.[FIXER]) ? null : FIXER, role: "coder", beforeVerdict: true }];
}

/**
 * The agent a fresh run's start step launches (the product manager or the architect), so the
 * orchestrator can start it while it does the rest of its own start-up: the start's launch takes
 * it over. Nothing for a resumed run (its phase decides on resume what to relaunch).
 */
export function startingAgents(s: State): UpcomingAgent[] {
  const fresh = s.history?.length === 1 && s.last_event === "feature_created";
  if (!fresh) return [];
  if (s.phase === "product_management") return [{ agent: "product-manager", role: "product-manager" }];
  if (s.phase === "architecting") return [{ agent: "architect", role: "architect" }];
  return [];
}

/** The agents of the phases after this one, in the order the run reaches them, as far as the state tells. */
function comingPhases(s: State, settings: Pick<Settings, "max_review_iterations" | "single_coder">): UpcomingAgent[] {
  switch (s.phase) {
    case "product_management":
      return [{ agent: "architect", role: "architect" }, { agent: "planner", role: "planner" }, ...codersBeforePlan(settings)];
    case "architecting":
      // the reviewers are the architect's to nominate: not known before its submit
      return [{ agent: "planner", role: "planner" }, ...codersBeforePlan(settings)];
    case "planning":
      return [...codersBeforePlan(settings), ...reviewers(s)];
    case "designing":
      // a new design starts the implementation afresh, with the configured coder mode (phases/implementing.ts)
      return [...(settings.single_coder ? [{ agent: "coder", role: "coder" as const }] : nextGroupCoders(s)), ...reviewers(s)];
    case "implementing": {
      if (s.implementation_active_plan_ids.length === 0) return [];
      const last = s.implementation_single_coder === true || (s.implementation_group_total > 0 && s.implementation_group_index >= s.implementation_group_total);
      const next = !last && s.implementation_group_index > 0 ? nextGroupCoders(s) : [];
      return [...next, ...reviewers(s), ...fixer(s, settings, s.review_iteration)];
    }
    case "fixing":
      return s.review_iteration > 0 ? [...reviewers(s), ...fixer(s, settings, s.review_iteration)] : [];
    case "reviewing": {
      // should the verdict fail: the fixer, then the next round's reviewers (by role: this round's hold their keys)
      const fix = fixer(s, settings, s.review_iteration);
      return fix.length ? [...fix, ...reviewers(s).map((r) => ({ agent: null, role: r.role, beforeVerdict: true as const }))] : [];
    }
    default:
      return [];
  }
}

/**
 * The agents the coming phases will start, nearest first, as far as the state alone tells
 * (pre-started handoffs, #15.3, #27.7): the product manager works → the architect, the planner
 * and the coders; the architect works → the planner, then the coders by role (the plan will name
 * them: one "coder" with a single coder); the planner works → the coders, then the nominated
 * reviewers; the designer works → the first group's coders, then the reviewers; an
 * implementation group works → the next group's coders, the reviewers, and the fixer should
 * their verdict fail; a review round works → the fixer and the next round's reviewers (by role),
 * should its verdict fail; a fix round works → the reviewers, then the next fixer. An agent two phases ahead is started while the phase before its own works, so a
 * phase shorter than a CLI's start (a quick plan, a small fix) still finds it ready.
 * The agents every run needs come first, then those it may need (`spare` coders, the fixer),
 * each in the order the run reaches them: the daemon pre-starts as many as `prestart.max_panes`
 * allows, from the front. Nothing while waiting on the user or after the run ended; agents
 * already live are left out. Pure.
 */
export function upcomingAgents(s: State, settings: Pick<Settings, "max_review_iterations" | "single_coder">): UpcomingAgent[] {
  if (s.awaiting_decision || s.awaiting_summary) return [];
  // a key comes once, when the run first reaches it (the next group's serial coder before the fixer, both "coder")
  const all = comingPhases(s, settings).filter(
    (u, i, list) => u.agent === null || (!agentLive(s.agents?.[u.agent]) && list.findIndex((x) => x.agent === u.agent) === i),
  );
  const maybe = (u: UpcomingAgent) => !!(u.spare || u.beforeVerdict);
  return [...all.filter((u) => !maybe(u)), ...all.filter(maybe)];
}

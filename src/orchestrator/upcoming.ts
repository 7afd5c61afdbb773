import { REVIEWER_ROLES, parallelCoderKey, type ReviewerRole, type Role } from "../schema/catalog.ts";
import { agentLive, type State } from "../schema/state.ts";
import type { Settings } from "./types.ts";

/**
 * An agent the next phase will launch, under the key and role the phase will use; `agent` null:
 * only its role is known yet (the coders before the plan is in: the plan names them), and the
 * first launch of that role takes it. `beforeVerdict`: the fixer while a review round runs, wanted
 * only if the verdict fails (config `prestart.fixer`).
 */
export type UpcomingAgent = { agent: string | null; role: Role; beforeVerdict?: true };

/** How many coders are started by role while the plan is written: a first group runs one coder or a few in parallel. */
export const CODERS_BEFORE_PLAN = 2;

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

function reviewers(s: State): ReviewerRole[] {
  const n = (s.reviewer_nominations ?? []).filter((r) => (REVIEWER_ROLES as readonly string[]).includes(r));
  return n.length ? n : ["reviewer_logic"];
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

/**
 * The agents the phase after this one will start, as far as the state alone tells (pre-started
 * handoffs, #15.3): the product manager works → the architect; the architect works → the planner;
 * the planner works → coders by role (the plan will name them: one "coder" with a single coder);
 * the designer works → the first group's coders; an implementation group works → the next
 * group's coders; the last implementation group or a fix round works → the nominated reviewers;
 * a review round that a failing verdict would send to a fix round → the fixer, marked
 * `beforeVerdict`. Nothing while waiting on the user or after the run ended.
 * Agents already live are left out. Pure: the daemon decides which of these to pre-start.
 */
export function upcomingAgents(s: State, settings: Pick<Settings, "max_review_iterations" | "single_coder">): UpcomingAgent[] {
  if (s.awaiting_decision || s.awaiting_summary) return [];
  const out: UpcomingAgent[] = [];
  switch (s.phase) {
    case "product_management":
      out.push({ agent: "architect", role: "architect" });
      break;
    case "architecting":
      out.push({ agent: "planner", role: "planner" });
      break;
    case "planning":
      if (settings.single_coder) out.push({ agent: "coder", role: "coder" });
      else for (let i = 0; i < CODERS_BEFORE_PLAN; i++) out.push({ agent: null, role: "coder" });
      break;
    case "designing":
      // a new design starts the implementation afresh, with the configured coder mode (phases/implementing.ts)
      if (settings.single_coder) out.push({ agent: "coder", role: "coder" });
      else out.push(...nextGroupCoders(s));
      break;
    case "implementing": {
      const last = s.implementation_single_coder === true || (s.implementation_group_total > 0 && s.implementation_group_index >= s.implementation_group_total);
      if (last && s.implementation_active_plan_ids.length > 0) out.push(...reviewers(s).map((r) => ({ agent: r, role: r })));
      else if (!last && s.implementation_group_index > 0 && s.implementation_active_plan_ids.length > 0) out.push(...nextGroupCoders(s));
      break;
    }
    case "fixing":
      if (s.review_iteration > 0) out.push(...reviewers(s).map((r) => ({ agent: r, role: r })));
      break;
    case "reviewing":
      // the fixer is always a fresh "coder" (phases/fixing.ts); at the loop cap no fix round comes
      if (s.review_iteration < settings.max_review_iterations) out.push({ agent: "coder", role: "coder", beforeVerdict: true });
      break;
    default:
      break;
  }
  return out.filter((u) => u.agent === null || !agentLive(s.agents?.[u.agent]));
}

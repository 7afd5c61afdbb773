import { REVIEWER_ROLES, parallelCoderKey, type ReviewerRole, type Role } from "../schema/catalog.ts";
import { agentLive, type State } from "../schema/state.ts";

/** An agent the next phase will launch, under the key and role the phase will use. */
export type UpcomingAgent = { agent: string; role: Role };

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
 * The agents the phase after this one will start, when that is already certain from the state
 * alone (pre-started handoffs, #15.3): the product manager works → the architect; the architect
 * works → the planner; an implementation group works → the next group's coders; the last
 * implementation group or a fix round works → the nominated reviewers. Nothing while the next
 * step depends on a result not in yet (the plan decides the coders, a verdict decides the
 * fixer), while waiting on the user, or after the run ended.
 * Agents already live are left out. Pure: the daemon decides which of these to pre-start.
 */
export function upcomingAgents(s: State): UpcomingAgent[] {
  if (s.awaiting_decision || s.awaiting_summary) return [];
  const out: UpcomingAgent[] = [];
  switch (s.phase) {
    case "product_management":
      out.push({ agent: "architect", role: "architect" });
      break;
    case "architecting":
      out.push({ agent: "planner", role: "planner" });
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
    default:
      break;
  }
  return out.filter((u) => !agentLive(s.agents?.[u.agent]));
}

import type { Role, ToolName } from "../schema/catalog.ts";
import type { AgentInfo, State } from "../schema/state.ts";
import { F, doneArtifact, reviewYaml } from "../protocol/paths.ts";

/** What an agent still owes the run: the tool that finishes its prompt and the file it vouches for. */
export type Owed = { tool: ToolName | null; file: string };

/** Owners of research per phase (they wait, legitimately idle, while a topic is dispatched). */
const RESEARCH_OWNERS: Partial<Record<State["phase"], string>> = {
  product_management: "product-manager",
  architecting: "architect",
  planning: "planner",
};

/** Roles whose prompts involve the user: a question at the end of their turn is for a person. */
export const ASKING_ROLES: readonly Role[] = ["product-manager", "architect", "planner"];

const LIVE: ReadonlySet<AgentInfo["status"]> = new Set(["starting", "working", "idle", "idle_without_submit", "needs_input", "rate_limited", "stuck"]);
export const isLive = (a: AgentInfo | undefined): a is AgentInfo => !!a && LIVE.has(a.status);

function waitingForResearch(state: State, key: string): boolean {
  if (RESEARCH_OWNERS[state.phase] !== key) return false;
  return [state.research_tasks, state.web_research_tasks].some((tasks) => Object.values(tasks ?? {}).includes("dispatched"));
}

/**
 * The submit the agent's current prompt requires and that has not arrived yet, or null when it
 * owes nothing now (finished its part, waits for research or for the summary prompt, a batch
 * researcher). Pure: read from the state alone.
 */
export function owedSubmit(state: State, key: string): Owed | null {
  const a = state.agents?.[key];
  if (!isLive(a) || waitingForResearch(state, key)) return null;
  const phase = state.phase;
  switch (a.role) {
    case "product-manager":
      return phase === "product_management" ? { tool: "submit_pm_done", file: F.requirements } : null;
    case "architect":
      return phase === "architecting" ? { tool: "submit_architecture", file: F.architecture } : null;
    case "planner":
      return phase === "planning" ? { tool: "submit_plan", file: F.planYaml } : null;
    case "designer":
      return phase === "designing" ? { tool: null, file: F.design } : null;
    case "coder": {
      if (phase !== "implementing" && phase !== "fixing") return null;
      const active = state.implementation_active_plan_ids;
      const plan = a.task === "whole" || a.task === "fix" ? active[0] : a.task;
      return plan && active.includes(plan) ? { tool: "submit_done", file: doneArtifact(Number(plan)) } : null;
    }
    case "reviewer_logic":
    case "reviewer_quality":
    case "reviewer_expert":
      if (phase !== "reviewing") return null;
      if (state.awaiting_summary) return { tool: null, file: F.summary };
      return state.active_reviews?.[a.role] === "pending" ? { tool: "submit_review", file: reviewYaml(a.role) } : null;
    default:
      return null; // researchers run in batch mode: their exit is their end
  }
}

import { z } from "zod";
import { REVIEWER_ROLES, ROLES } from "./role-names.ts";

export { REVIEWER_ROLES, ROLES };

/** Workflow phases in pipeline order. `done` and `failed` are terminal. */
export const PHASES = [
  "product_management",
  "architecting",
  "planning",
  "designing",
  "implementing",
  "reviewing",
  "fixing",
  "completing",
  "done",
  "failed",
] as const;
export const Phase = z.enum(PHASES);
export type Phase = z.infer<typeof Phase>;
/** A run in `done` or `failed` has ended: nothing moves it any more (resume restarts a failed one). */
export const phaseEnded = (phase: Phase): phase is "done" | "failed" => phase === "done" || phase === "failed";

/**
 * The `last_event` catalog (seeds/shared-file-protocol.txt), plus `approval_received`,
 * which seeds/phase-completion.txt names as the completing → done event.
 */
export const WORKFLOW_EVENTS = {
  feature_created: "starting up",
  resumed: "resumed",
  pm_completed: "pm done",
  architecture_written: "architecture ready",
  plan_written: "plan ready",
  design_written: "design ready",
  implementation_completed: "code done",
  review_failed: "fix needed",
  review_passed: "review passed",
  changes_requested: "changes asked",
  approval_received: "approved",
  run_canceled: "canceled",
  run_failed: "run failed",
} as const;
export type WorkflowEvent = keyof typeof WORKFLOW_EVENTS;
export const WorkflowEvent = z.enum(Object.keys(WORKFLOW_EVENTS) as [WorkflowEvent, ...WorkflowEvent[]]);

export const eventLabel = (e: string): string => (WORKFLOW_EVENTS as Record<string, string>)[e] ?? e.replace(/_/g, " ");

export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const ReviewerRole = z.enum(REVIEWER_ROLES);
export type ReviewerRole = z.infer<typeof ReviewerRole>;
export const reviewerShort = (r: ReviewerRole) => r.slice("reviewer_".length);

/** MCP tool names (bare; CLIs prefix them, e.g. claude's `mcp__agentmux__submit_done`). */
export const TOOLS = [
  "submit_pm_done",
  "submit_architecture",
  "submit_plan",
  "submit_review",
  "submit_done",
  "submit_research_done",
  "research_dispatch_code",
  "research_dispatch_web",
] as const;
export const ToolName = z.enum(TOOLS);
export type ToolName = z.infer<typeof ToolName>;

/** Which role may call which tool. */
/** The agent key of the coder of sub-plan `index` in a parallel group (`coder:2`); the serial or single coder is `coder`. */
export const parallelCoderKey = (index: number) => `coder:${index}`;
/** The sub-plan a parallel coder's agent key names, or null for any other agent. */
export const parallelCoderIndex = (agent: string): number | null => {
  const m = /^coder:(\d+)$/.exec(agent);
  return m ? Number(m[1]) : null;
};

export const ROLE_TOOLS: Record<Role, readonly ToolName[]> = {
  "product-manager": ["research_dispatch_code", "research_dispatch_web", "submit_pm_done"],
  architect: ["research_dispatch_code", "research_dispatch_web", "submit_architecture"],
  planner: ["research_dispatch_code", "research_dispatch_web", "submit_plan"],
  designer: [],
  coder: ["submit_done"],
  reviewer_logic: ["submit_review"],
  reviewer_quality: ["submit_review"],
  reviewer_expert: ["submit_review"],
  "code-researcher": ["submit_research_done"],
  "web-researcher": ["submit_research_done"],
};

/** Which phases accept which tool (a call outside them is refused at the MCP server). */
export const TOOL_PHASES: Record<ToolName, readonly Phase[]> = {
  submit_pm_done: ["product_management"],
  submit_architecture: ["architecting"],
  submit_plan: ["planning"],
  submit_review: ["reviewing"],
  submit_done: ["implementing", "fixing"],
  submit_research_done: ["product_management", "architecting", "planning"],
  research_dispatch_code: ["product_management", "architecting", "planning"],
  research_dispatch_web: ["product_management", "architecting", "planning"],
};

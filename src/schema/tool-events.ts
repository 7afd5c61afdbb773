import { z } from "zod";
import { ReviewerRole, ToolName } from "./catalog.ts";
import { ResearchType, TopicSlug } from "./artifacts/research.ts";

/** A preference the user approved, appended to `.agentmux/prompts/agents/<target_role>.md`. */
export const Preference = z.strictObject({
  target_role: z.string().trim().min(1),
  bullet: z.string().trim().min(1),
});
export type Preference = z.infer<typeof Preference>;

/** MCP tool inputs — the MCP server's JSON Schemas derive from these. */
export const ToolInputs = {
  submit_pm_done: z.strictObject({ preferences: z.array(Preference).optional() }),
  submit_architecture: z.strictObject({
    reviewers: z.array(ReviewerRole).optional().describe("reviewer roles to run in the review phase"),
    preferences: z.array(Preference).optional(),
  }),
  submit_plan: z.strictObject({ preferences: z.array(Preference).optional() }),
  submit_review: z.strictObject({ role: ReviewerRole.optional(), preferences: z.array(Preference).optional() }),
  submit_done: z.strictObject({ subplan_index: z.number().int().min(1) }),
  submit_research_done: z.strictObject({ topic: TopicSlug, type: ResearchType }),
  research_dispatch_code: z.strictObject({
    topic: TopicSlug,
    context: z.string().trim().min(1),
    questions: z.array(z.string().trim().min(1)).min(1),
    scope_hints: z.union([z.string(), z.array(z.string())]).nullable().optional(),
  }),
  research_dispatch_web: z.strictObject({
    topic: TopicSlug,
    context: z.string().trim().min(1),
    questions: z.array(z.string().trim().min(1)).min(1),
    scope_hints: z.union([z.string(), z.array(z.string())]).nullable().optional(),
  }),
} satisfies Record<ToolName, z.ZodType>;

/** One line of `tool_events.jsonl` (seeds/shared-file-protocol.txt). */
export const ToolEventLine = z.object({
  tool: ToolName,
  timestamp: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});
export type ToolEventLine = z.infer<typeof ToolEventLine>;

/** Payloads appended per tool (minimal signals; agents own the artifact files). */
export const ToolPayloads = {
  submit_pm_done: z.object({}),
  submit_architecture: z.object({ reviewers: z.array(ReviewerRole).optional() }),
  submit_plan: z.object({}),
  submit_review: z.object({ role: ReviewerRole }),
  submit_done: z.object({ subplan_index: z.number().int().min(1) }),
  submit_research_done: z.object({ topic: TopicSlug, type: ResearchType, role_type: z.string().optional() }),
  research_dispatch_code: z.object({
    topic: TopicSlug,
    context: z.string(),
    questions: z.array(z.string()),
    scope_hints: z.array(z.string()).nullable(),
    research_type: z.literal("code"),
  }),
  research_dispatch_web: z.object({
    topic: TopicSlug,
    context: z.string(),
    questions: z.array(z.string()),
    scope_hints: z.array(z.string()).nullable(),
    research_type: z.literal("web"),
  }),
} satisfies Record<ToolName, z.ZodType>;

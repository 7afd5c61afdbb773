import { z } from "zod";
import { ReviewerRole, Role, ToolName } from "./catalog.ts";
import { ResearchDispatch, ResearchType, TopicSlug, researchPayload } from "./artifacts/research.ts";

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
  research_dispatch_code: ResearchDispatch,
  research_dispatch_web: ResearchDispatch,
} satisfies Record<ToolName, z.ZodType>;
/** A tool's input after validation (normalized: trimmed strings, scope hints as a list). */
export type ToolInput<T extends ToolName> = z.output<(typeof ToolInputs)[T]>;

/** ToolInputs indexed so that a generic tool name keeps its own input type (`ToolInputSchema[T]`). */
export const ToolInputSchema: { [T in ToolName]: z.ZodType<ToolInput<T>> } = ToolInputs;

/**
 * One line of `tool_events.jsonl` (seeds/shared-file-protocol.txt): the envelope, payload
 * unchecked. agentmux's endpoint adds who made the call as it verified it (`agent`, `role` —
 * never the token), a run-wide sequence number and a seal over the line (bus/tool-seal.ts);
 * they are optional here so that a line without them parses and is then rejected by name.
 */
export const ToolEventLine = z.object({
  tool: ToolName,
  timestamp: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
  /** the agent key the endpoint's token identified, e.g. "coder:2" */
  agent: z.string().min(1).optional(),
  /** that agent's role, from the orchestrator's launch record (not from anything the agent sent) */
  role: Role.optional(),
  /** 1, 2, 3… in the order the endpoint accepted the calls, across restarts of the run */
  seq: z.number().int().min(1).optional(),
  /**
   * HMAC-SHA256 (64 lower-case hex digits) of the line's bytes before this field, keyed by the
   * run's secret. Its form is checked with its value, when the line is applied: any other string
   * is a line without a valid seal (rejected as unsealed), not a malformed line.
   */
  seal: z.string().optional(),
});
export type ToolEventLine = z.infer<typeof ToolEventLine>;

/**
 * The exact bytes the endpoint validated, copied when it accepted the call: a path relative to
 * the session folder (content-addressed, under `.runtime/snapshots/`) and their SHA-256. The
 * orchestrator applies the snapshot, never the agent's file as it is later.
 */
export const Snapshot = z.object({
  path: z.string().regex(/^\.runtime\/snapshots\/[0-9a-f]{64}\.[a-z]+$/, "must name a file in .runtime/snapshots/"),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type Snapshot = z.infer<typeof Snapshot>;

/** Payloads appended per tool (minimal signals; agents own the artifact files; `snapshot`: see Snapshot). */
export const ToolPayloads = {
  submit_pm_done: z.object({}),
  submit_architecture: z.object({ reviewers: z.array(ReviewerRole).optional() }),
  submit_plan: z.object({ snapshot: Snapshot.optional() }),
  submit_review: z.object({ role: ReviewerRole, snapshot: Snapshot.optional() }),
  submit_done: z.object({ subplan_index: z.number().int().min(1), snapshot: Snapshot.optional() }),
  submit_research_done: z.object({ topic: TopicSlug, type: ResearchType, role_type: z.string().optional() }),
  research_dispatch_code: researchPayload("code"),
  research_dispatch_web: researchPayload("web"),
} satisfies Record<ToolName, z.ZodType>;
export type ToolPayload<T extends ToolName> = z.output<(typeof ToolPayloads)[T]>;
/** ToolPayloads indexed so that a generic tool name keeps its own payload type. */
export const ToolPayloadSchema: { [T in ToolName]: z.ZodType<ToolPayload<T>> } = ToolPayloads;

const lineOf = <T extends ToolName>(tool: T) => ToolEventLine.extend({ tool: z.literal(tool), payload: ToolPayloads[tool] });

/** A tool_events.jsonl line whose payload is checked against its tool: `tool` narrows `payload`. */
export const TypedToolEventLine = z.discriminatedUnion("tool", [
  lineOf("submit_pm_done"),
  lineOf("submit_architecture"),
  lineOf("submit_plan"),
  lineOf("submit_review"),
  lineOf("submit_done"),
  lineOf("submit_research_done"),
  lineOf("research_dispatch_code"),
  lineOf("research_dispatch_web"),
]);
export type TypedToolEventLine = z.infer<typeof TypedToolEventLine>;

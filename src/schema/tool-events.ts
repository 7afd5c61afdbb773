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

const TOOL_NAMES: ReadonlySet<unknown> = new Set(ToolName.options);
const ROLE_NAMES: ReadonlySet<unknown> = new Set(Role.options);

/**
 * ToolEventLine's check without zod, for the replay's hot path (a resume reads every line of a
 * long run): the line as ToolEventLine would give it when it is certainly valid, else null and
 * the caller asks ToolEventLine, whose problems name the field. It never accepts what the schema
 * refuses (test/schema/tool-line-envelope.test.ts checks both on the same lines); the payload
 * is kept as parsed instead of copied key by key (only `payload` of the line refers to it).
 */
export function validEnvelope(raw: Record<string, unknown>): ToolEventLine | null {
  const { tool, timestamp, payload, agent, role, seq, seal } = raw;
  if (!TOOL_NAMES.has(tool) || typeof timestamp !== "string" || timestamp.length === 0) return null;
  if (typeof payload !== "object" || payload === null || Array.isArray(payload) || Object.getPrototypeOf(payload) !== Object.prototype || Object.hasOwn(payload, "__proto__")) return null;
  const line = { tool, timestamp, payload } as ToolEventLine;
  if (agent !== undefined) {
    if (typeof agent !== "string" || agent.length === 0) return null;
    line.agent = agent;
  }
  if (role !== undefined) {
    if (!ROLE_NAMES.has(role)) return null;
    line.role = role as Role;
  }
  if (seq !== undefined) {
    if (!Number.isSafeInteger(seq) || (seq as number) < 1) return null;
    line.seq = seq as number;
  }
  if (seal !== undefined) {
    if (typeof seal !== "string") return null;
    line.seal = seal;
  }
  return line;
}

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

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const isSlug = (v: unknown): v is string => typeof v === "string" && SLUG.test(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

function researchRequest(p: Record<string, unknown>, type: ResearchType): ToolPayload<"research_dispatch_code"> | ToolPayload<"research_dispatch_web"> | null {
  const { topic, context, questions, scope_hints, research_type } = p;
  if (!isSlug(topic) || typeof context !== "string" || !isStrings(questions) || (scope_hints !== null && !isStrings(scope_hints)) || research_type !== type) return null;
  return { topic, context, questions: [...questions], scope_hints: scope_hints === null ? null : [...scope_hints], research_type: type } as ToolPayload<"research_dispatch_code">;
}

/**
 * ToolPayloads' check without zod for the tools a long run calls thousands of times (research
 * dispatches and their results), as validEnvelope for the envelope: the payload as the schema
 * would give it when it is certainly valid, else null and the caller asks the schema, whose
 * problems name the field (test/schema/tool-line-envelope.test.ts checks both agree).
 */
export function validPayload<T extends ToolName>(tool: T, p: Record<string, unknown>): ToolPayload<T> | null {
  if (Object.getPrototypeOf(p) !== Object.prototype) return null;
  switch (tool) {
    case "research_dispatch_code":
      return researchRequest(p, "code") as ToolPayload<T> | null;
    case "research_dispatch_web":
      return researchRequest(p, "web") as ToolPayload<T> | null;
    case "submit_research_done": {
      const { topic, type, role_type } = p;
      if (!isSlug(topic) || (type !== "code" && type !== "web") || (role_type !== undefined && typeof role_type !== "string")) return null;
      return (role_type === undefined ? { topic, type } : { topic, type, role_type }) as ToolPayload<T>;
    }
    default:
      return null;
  }
}

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

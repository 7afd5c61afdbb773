import { z } from "zod";

export const TopicSlug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be a lowercase slug like 'auth-flow'");

export const ResearchType = z.enum(["code", "web"]);
export type ResearchType = z.infer<typeof ResearchType>;

/**
 * What a research dispatch carries, in its one normalized form: the payload the MCP server
 * appends to tool_events.jsonl and the `research_dispatched` event are built from it.
 */
export const ResearchRequest = z.object({
  topic: TopicSlug,
  context: z.string(),
  questions: z.array(z.string()),
  scope_hints: z.array(z.string()).nullable(),
});
export type ResearchRequest = z.infer<typeof ResearchRequest>;

const normalizeHints = (h: string | string[] | null | undefined): string[] | null =>
  h === undefined || h === null ? null : (Array.isArray(h) ? h : [h]).map((s) => s.trim()).filter(Boolean);

/**
 * The `research_dispatch_code` / `research_dispatch_web` tool input as an agent sends it
 * (strict; `scope_hints` may be one string or a list). Parsing yields a ResearchRequest.
 */
export const ResearchDispatch = z
  .strictObject({
    topic: TopicSlug,
    context: z.string().trim().min(1, "must describe the context"),
    questions: z.array(z.string().trim().min(1)).min(1, "must ask at least one question"),
    scope_hints: z
      .union([z.string(), z.array(z.string())])
      .nullable()
      .optional(),
  })
  .transform((d): ResearchRequest => ({ topic: d.topic, context: d.context, questions: d.questions, scope_hints: normalizeHints(d.scope_hints) }));
export type ResearchDispatch = z.input<typeof ResearchDispatch>;

/** The payload of a research dispatch line: the request and its type. */
export const researchPayload = <T extends ResearchType>(type: T) => ResearchRequest.extend({ research_type: z.literal(type) });

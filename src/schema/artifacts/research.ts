import { z } from "zod";

export const TopicSlug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be a lowercase slug like 'auth-flow'");

export const ResearchDispatch = z.strictObject({
  topic: TopicSlug,
  context: z.string().trim().min(1, "must describe the context"),
  questions: z.array(z.string().trim().min(1)).min(1, "must ask at least one question"),
  scope_hints: z.union([z.string(), z.array(z.string())]).nullable().optional(),
});
export type ResearchDispatch = z.infer<typeof ResearchDispatch>;

export const ResearchType = z.enum(["code", "web"]);
export type ResearchType = z.infer<typeof ResearchType>;

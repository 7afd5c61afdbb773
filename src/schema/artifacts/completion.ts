import { z } from "zod";

/** `08_completion/approval.json` (seeds/completion-artifacts.txt). */
export const Approval = z.strictObject({
  action: z.literal("approve", { error: 'must be "approve"' }),
  /** absent: commit every changed file (the Python agentmux reads a missing list as empty) */
  exclude_files: z.array(z.string().min(1, "must be a non-empty path")).default([]),
  commit_message: z.string().optional(),
});
export type Approval = z.infer<typeof Approval>;

/** `08_completion/changes.md`: free Markdown; only emptiness is an error. */
export const ChangesText = z.string().refine((s) => s.trim().length > 0, "changes.md must describe the requested changes");

/** `<project>/.agentmux/.last_completion.json`. */
export const LastCompletion = z.strictObject({
  feature_name: z.string(),
  commit_hash: z.string(),
  pr_url: z.string().nullable(),
  branch_name: z.string(),
});
export type LastCompletion = z.infer<typeof LastCompletion>;

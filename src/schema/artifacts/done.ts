import { z } from "zod";

const relPath = z.string().trim().min(1, "must be a non-empty path");

/**
 * `06_implementation/done_<N>.json`: the coder's completion artifact
 * (seeds/agent-completion-artifacts-verification-gate.txt, builder format).
 * `submit_done` is refused unless it exists, parses, and its claims are real.
 */
export const DoneArtifact = z.object({
  subplan_index: z.number().int().min(1).optional(),
  agent: z.string().optional(),
  status: z.enum(["SUCCESS", "PARTIAL", "FAILED"]),
  tasks_completed: z.array(z.string().trim().min(1)),
  files_created: z.array(relPath),
  files_modified: z.array(relPath),
  files_deleted: z.array(relPath).optional(),
  tests: z.strictObject({
    files: z.number().int().min(0),
    cases: z.number().int().min(0),
  }),
  issues_fixed: z.record(z.string(), z.number().int().min(0)).optional(),
  timestamp: z.string().optional(),
});
export type DoneArtifact = z.infer<typeof DoneArtifact>;

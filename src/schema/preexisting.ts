import { z } from "zod";

/**
 * `.runtime/preexisting_changes.json`: uncommitted files that were already in the working tree
 * when a run started — the path and its content then (blob id and mode; null oid = deleted).
 */
export const PreexistingChanges = z.array(
  z.object({
    path: z.string(),
    oid: z.string().nullable(),
    mode: z.number().int(),
    /** written by a process outside the run (the launcher's own output, `agentmux run … > run.log`): never the run's change, whatever its content */
    outside: z.literal(true).optional(),
  }),
);
export type PreexistingChanges = z.infer<typeof PreexistingChanges>;

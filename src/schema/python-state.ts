import { z } from "zod";

/**
 * state.json as the Python agentmux writes it (shared/reference/agentmux-python-inventory.md
 * §3.1): the seed fields with its own shapes (completed_subplans as numbers, issue_number as a
 * string, plan ids as `plan_2`, review results without a summary) and none of agentmux's own —
 * no `schema_version`, which every state agentmux writes has. Only what tells it apart is
 * checked; session/python-state.ts converts the rest field by field.
 */
export const PythonStateFile = z
  .looseObject({
    phase: z.string(),
    feature_dir: z.string().optional(),
    session_name: z.string().optional(),
  })
  .refine((s) => !("schema_version" in s), "has schema_version: agentmux wrote it")
  .refine((s) => s.feature_dir !== undefined || s.session_name !== undefined, "names neither feature_dir nor session_name");
export type PythonStateFile = z.infer<typeof PythonStateFile>;

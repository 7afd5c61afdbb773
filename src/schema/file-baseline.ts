import { z } from "zod";

/**
 * `07_review/baseline_<round>.json`: the git blob id of each file the round's line comments are
 * about, taken before the fixer starts (null: the file did not exist). A fixer that says it
 * addressed a comment must have changed its file since then.
 */
export const FileBaseline = z.object({
  round: z.number().int().min(0),
  files: z.record(z.string(), z.string().nullable()),
});
export type FileBaseline = z.infer<typeof FileBaseline>;

import { z } from "zod";

/**
 * A pull request's CI as `gh pr checks --json name,state,bucket,link,workflow,description`
 * reports it. Loose: gh may add fields. Every string is untrusted (job names, descriptions).
 */
export const CI_CHECK_FIELDS = "name,state,bucket,link,workflow,description";

export const GhPrCheck = z.looseObject({
  name: z.string(),
  state: z.string().default(""),
  /** gh's grouping of `state`: pass, fail, pending, skipping, cancel */
  bucket: z.string().default(""),
  link: z.string().default(""),
  workflow: z.string().default(""),
  description: z.string().default(""),
});
export type GhPrCheck = z.infer<typeof GhPrCheck>;

/** Where a pull request's CI stands: all passed (or skipped), something failed, still running, or no checks at all. */
export const CiState = z.enum(["green", "failing", "pending", "no_checks"]);
export type CiState = z.infer<typeof CiState>;

/** The end of following a pull request's CI (`watchCi`). */
export const CiWatchOutcome = z.object({
  state: z.enum(["green", "failing", "no_checks", "timed_out"]),
  checks: z.array(GhPrCheck),
  /** the checks that failed or were cancelled */
  failing: z.array(GhPrCheck),
  /** polls made */
  polls: z.number().int().min(1),
});
export type CiWatchOutcome = z.infer<typeof CiWatchOutcome>;

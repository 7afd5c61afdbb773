import { z } from "zod";
import { CheckFinding, CheckStatus, TestCounts } from "../checks.ts";

/** One check in one review round (its latest batch there): the run API's view of it (docs/checks.md). */
export const CheckSnapshot = z.object({
  name: z.string(),
  /** 0: after the implementation, N: fix round N */
  round: z.number().int(),
  /** the batch it ran in (its files are under 06_checks/run_<run>/) */
  run: z.number().int(),
  /** queued, running, or its outcome */
  state: z.union([z.enum(["queued", "running"]), CheckStatus]),
  command: z.string().nullable(),
  required: z.boolean().nullable(),
  /** it fails the same way on the run's base commit: named, never blocking */
  pre_existing: z.boolean().nullable(),
  /** it fails, is required and is not pre-existing */
  blocking: z.boolean(),
  exit_code: z.number().int().nullable(),
  duration_ms: z.number().nullable(),
  /** failing lines its output named */
  failures: z.number().int().nullable(),
  findings: z.array(CheckFinding),
  tests: TestCounts.nullable(),
  /** its output log and its whole result (JSON), relative to the session folder */
  log: z.string().nullable(),
  file: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type CheckSnapshot = z.infer<typeof CheckSnapshot>;

export const ChecksSnapshot = z.object({
  /** the latest review round the checks ran in, null when none ran */
  round: z.number().int().nullable(),
  /** the checks of that round that block the commit */
  blocking: z.array(z.string()),
  /** every check of every round, in the order they first ran */
  results: z.array(CheckSnapshot),
});
export type ChecksSnapshot = z.infer<typeof ChecksSnapshot>;

import { z } from "zod";
import { CheckKind, CheckStatus, TestCounts } from "../checks.ts";

/**
 * The Inspector completion of seeds/agent-completion-artifacts-verification-gate.txt, written by
 * agentmux from the checks it ran itself (never claimed by an agent). `NOT_RUN`: no configured
 * check covers that quality check — agentmux does not claim a PASS it has no evidence for.
 */
export const QualityVerdict = z.enum(["PASS", "FAIL", "NOT_RUN"]);
export type QualityVerdict = z.infer<typeof QualityVerdict>;

export const InspectorCompletion = z.object({
  story_key: z.string(),
  agent: z.literal("inspector"),
  /** PASS when no required check blocks (a failure already on the base does not) */
  status: z.enum(["PASS", "FAIL"]),
  quality_checks: z.object({ type_check: QualityVerdict, lint: QualityVerdict, build: QualityVerdict }),
  /** from the test runners' summaries; a test check whose output gives no counts counts as one test */
  tests: TestCounts.extend({ coverage: z.number().min(0).max(100).optional() }),
  files_verified: z.array(z.string()),
  timestamp: z.string(),
  /** the checks this record rests on (an extension of the seed's shape) */
  checks: z.array(
    z.object({
      name: z.string(),
      kind: CheckKind,
      status: CheckStatus,
      required: z.boolean(),
      pre_existing: z.boolean().optional(),
      round: z.number().int().min(0),
    }),
  ),
});
export type InspectorCompletion = z.infer<typeof InspectorCompletion>;

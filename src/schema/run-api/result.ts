import { z } from "zod";
import { ReviewLoopCap } from "../state.ts";
import { UsageFigures } from "./usage.ts";

/**
 * How a run ended: the last line of `--ci --json` (kind "result"). Fields are only added
 * (test/report/contract.test.ts).
 */
export const RunResult = z.object({
  kind: z.literal("result"),
  outcome: z.enum(["success", "canceled", "failed"]),
  /** agentmux's exit code: 0 success, 130 canceled, else failed */
  exit_code: z.number().int(),
  session: z.string(),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  pr_url: z.string().nullable(),
  cause: z.string().nullable(),
  review_loop_cap: ReviewLoopCap.nullable(),
  notes: z.array(z.string()),
  /** tokens and estimated cost of the run; null when no agent's usage could be read */
  usage: UsageFigures.extend({ budget_reached: z.string().nullable() }).nullable(),
  // ── run API v1 additions ──
  api_version: z.number().int().min(1),
  /** the command that resumes the run, when it can be resumed */
  resume_command: z.string().nullable(),
});
export type RunResult = z.infer<typeof RunResult>;

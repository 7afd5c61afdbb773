import { z } from "zod";
import { ReviewerRole } from "./catalog.ts";

const role = z.string().trim().min(1, "must name a role");
const ms = z.coerce.number().int().min(0, "must be a whole number of milliseconds");

/**
 * The simulated agent's misbehaviour switches, parsed from AGENTMUX_SIM_SCENARIO
 * ("parallel,review_fail_once,crash=coder,slow_start=300"). Every field is optional.
 */
export const SimScenario = z.strictObject({
  parallel: z.boolean().optional(),
  design: z.boolean().optional(),
  reviewers: z.array(ReviewerRole).min(1).optional(),
  review_fail_once: z.boolean().optional(),
  review_fail_always: z.boolean().optional(),
  malformed_plan_once: z.boolean().optional(),
  gate_refuse_once: z.boolean().optional(),
  commit_message: z.boolean().optional(),
  research: z.boolean().optional(),
  crash: role.optional(),
  crash_once: role.optional(),
  stall: role.optional(),
  trust_dialog: z.boolean().optional(),
  slow_start: ms.optional(),
  ignore_first_enter: z.boolean().optional(),
  early_enter_ms: ms.optional(),
});
export type SimScenario = z.infer<typeof SimScenario>;

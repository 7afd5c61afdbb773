import { z } from "zod";

/** Tokens and estimated cost (USD) of a run or an agent, from the CLIs' own records. */
export const UsageFigures = z.object({
  input: z.number(),
  cached: z.number(),
  cache_write: z.number(),
  output: z.number(),
  tokens: z.number(),
  /** rounded to a millionth of a dollar */
  cost_usd: z.number(),
  /** conversations whose model had no price (their cost is not in cost_usd) */
  unpriced: z.number(),
  models: z.array(z.string()),
  /** every figure came from the simulated agent (the demo): nothing was spent */
  simulated: z.boolean(),
});
export type UsageFigures = z.infer<typeof UsageFigures>;

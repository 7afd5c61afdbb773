import { z } from "zod";

const count = z.number().int().min(0);

/**
 * Token figures of one CLI conversation, from the CLI's own records: `input` is the input not
 * served from a cache, `cached` the input read from the prompt cache, `cache_write` the input
 * written to it (claude only), `output` includes reasoning tokens.
 */
export const TokenFigures = z.object({
  input: count,
  cached: count,
  cache_write: count,
  output: count,
});
export type TokenFigures = z.infer<typeof TokenFigures>;

/** state.usage[<conversation id>]: one conversation's figures, its agent and its estimated cost. */
export const UsageRecord = TokenFigures.extend({
  agent: z.string(),
  provider: z.string(),
  /** the model the records name (the last one when it changed) */
  model: z.string().nullable(),
  /** where the figures came from: `claude` transcript, `codex` rollout */
  source: z.enum(["claude", "codex", "gemini", "opencode", "qwen", "copilot"]),
  /** USD at the price table's rates; null when the table has no price for the model */
  cost_usd: z.number().min(0).nullable(),
});
export type UsageRecord = z.infer<typeof UsageRecord>;

/** Where a provider's CLI keeps its usage: its format, and its home folder (`{session}`: the session folder). */
export const UsageSource = z.strictObject({
  format: z.enum(["claude", "codex", "gemini", "opencode", "qwen", "copilot"]),
  /** the CLI's home (claude: CLAUDE_CONFIG_DIR, ~/.claude; codex: CODEX_HOME, ~/.codex; gemini: the `.gemini` of GEMINI_CLI_HOME, else ~/.gemini; opencode: no default, its built-in block names `{session}/.runtime/opencode`, where agentmux's plugin writes; qwen: QWEN_RUNTIME_DIR, QWEN_HOME, ~/.qwen; copilot: COPILOT_HOME, ~/.copilot) when not the default */
  home: z.string().nullable().default(null),
});
export type UsageSource = z.infer<typeof UsageSource>;

/** USD per million tokens. */
const rate = z.number().min(0);
export const ModelPrice = z.strictObject({
  input: rate,
  output: rate,
  /** cache reads; the input rate when absent */
  cached: rate.optional(),
  /** cache writes (claude); the input rate when absent */
  cache_write: rate.optional(),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

export const Pricing = z.strictObject({
  /** the day the rates were last checked against the vendors' price pages (YYYY-MM-DD) */
  checked: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date: YYYY-MM-DD"),
  /** model name (or its start, ending in `*`) → rates; the longest match wins */
  models: z.record(z.string(), ModelPrice),
});
export type Pricing = z.infer<typeof Pricing>;

/** Per-run budget: at the limit agents are paused and the user asked; a headless run fails. */
export const UsageLimits = z.strictObject({
  max_cost_usd: z.number().positive().nullable().default(null),
  max_tokens: z.number().int().positive().nullable().default(null),
});
export type UsageLimits = z.infer<typeof UsageLimits>;

/** The sum of some records (tokens: every kind added up). */
export function totalOf(
  records: readonly (TokenFigures & { cost_usd: number | null })[],
): TokenFigures & { tokens: number; cost_usd: number; unpriced: number } {
  const t = { input: 0, cached: 0, cache_write: 0, output: 0, tokens: 0, cost_usd: 0, unpriced: 0 };
  for (const r of records) {
    t.input += r.input;
    t.cached += r.cached;
    t.cache_write += r.cache_write;
    t.output += r.output;
    if (r.cost_usd === null) t.unpriced++;
    else t.cost_usd += r.cost_usd;
  }
  t.tokens = t.input + t.cached + t.cache_write + t.output;
  return t;
}

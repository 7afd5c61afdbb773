import type { State } from "../schema/state.ts";
import { totalOf, type UsageRecord } from "../schema/usage.ts";

/** `simulated`: every figure came from the built-in simulated agent (the demo): nothing was spent. */
export type UsageSum = ReturnType<typeof totalOf> & { models: string[]; simulated: boolean };

const sum = (records: UsageRecord[]): UsageSum => ({
  ...totalOf(records),
  models: [...new Set(records.map((r) => r.model).filter((m): m is string => !!m))],
  simulated: records.length > 0 && records.every((r) => r.provider === "sim"),
});

/** Each agent's usage (all its conversations added up), by agent key. */
export function usageByAgent(state: State): Record<string, UsageSum> {
  const by = new Map<string, UsageRecord[]>();
  for (const r of Object.values(state.usage ?? {})) by.set(r.agent, [...(by.get(r.agent) ?? []), r]);
  return Object.fromEntries([...by].map(([agent, records]) => [agent, sum(records)]));
}

/** The run's usage; null when no agent's usage could be read. */
export function usageTotal(state: State): UsageSum | null {
  const records = Object.values(state.usage ?? {});
  return records.length ? sum(records) : null;
}

/** A sum's figures as `status --json` and the `--json` result line print them (cost rounded to a millionth of a dollar). */
export function usageFigures(u: UsageSum) {
  return { input: u.input, cached: u.cached, cache_write: u.cache_write, output: u.output, tokens: u.tokens, cost_usd: Math.round(u.cost_usd * 1e6) / 1e6, unpriced: u.unpriced, models: u.models, simulated: u.simulated };
}

/** `12.3k`, `1.2M`. */
export function tokensText(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k`;
  return String(n);
}

/**
 * `$0.42`, or `$0.42+` when some conversations had no price (their cost is unknown). The
 * simulated agent writes the records a real CLI would, priced like any: its cost says
 * `(simulated)`, so that a demo never reads as money spent.
 */
export function costText(u: Pick<UsageSum, "cost_usd" | "unpriced" | "tokens" | "simulated">): string {
  if (u.unpriced && u.cost_usd === 0) return "no price";
  return `$${u.cost_usd.toFixed(2)}${u.unpriced ? "+" : ""}${u.simulated ? " (simulated)" : ""}`;
}

/** `1.2M tokens (12k in, 1.1M cached, 40k out) · $0.42` */
export function usageLine(u: UsageSum): string {
  const parts = [`${tokensText(u.input)} in`, `${tokensText(u.cached)} cached`, ...(u.cache_write ? [`${tokensText(u.cache_write)} cache write`] : []), `${tokensText(u.output)} out`];
  return `${tokensText(u.tokens)} tokens (${parts.join(", ")}) · ${costText(u)}`;
}

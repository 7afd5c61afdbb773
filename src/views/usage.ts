import type { State } from "../schema/state.ts";
import { totalOf, type UsageRecord } from "../schema/usage.ts";

export type UsageSum = ReturnType<typeof totalOf> & { models: string[] };

const sum = (records: UsageRecord[]): UsageSum => ({ ...totalOf(records), models: [...new Set(records.map((r) => r.model).filter((m): m is string => !!m))] });

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

/** `12.3k`, `1.2M`. */
export function tokensText(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k`;
  return String(n);
}

/** `$0.42`, or `$0.42+` when some conversations had no price (their cost is unknown). */
export function costText(u: Pick<UsageSum, "cost_usd" | "unpriced" | "tokens">): string {
  if (u.unpriced && u.cost_usd === 0) return "no price";
  return `$${u.cost_usd.toFixed(2)}${u.unpriced ? "+" : ""}`;
}

/** `1.2M tokens (12k in, 1.1M cached, 40k out) · $0.42` */
export function usageLine(u: UsageSum): string {
  const parts = [`${tokensText(u.input)} in`, `${tokensText(u.cached)} cached`, ...(u.cache_write ? [`${tokensText(u.cache_write)} cache write`] : []), `${tokensText(u.output)} out`];
  return `${tokensText(u.tokens)} tokens (${parts.join(", ")}) · ${costText(u)}`;
}

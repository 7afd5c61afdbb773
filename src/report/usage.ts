import type { State } from "../schema/state.ts";
import { totalOf, type UsageRecord } from "../schema/usage.ts";
import type { UsageFigures } from "../schema/run-api/usage.ts";

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
export function usageFigures(u: UsageSum): UsageFigures {
  return {
    input: u.input,
    cached: u.cached,
    cache_write: u.cache_write,
    output: u.output,
    tokens: u.tokens,
    cost_usd: Math.round(u.cost_usd * 1e6) / 1e6,
    unpriced: u.unpriced,
    models: u.models,
    simulated: u.simulated,
  };
}

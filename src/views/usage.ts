import type { UsageSum } from "../report/usage.ts";

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
  const parts = [
    `${tokensText(u.input)} in`,
    `${tokensText(u.cached)} cached`,
    ...(u.cache_write ? [`${tokensText(u.cache_write)} cache write`] : []),
    `${tokensText(u.output)} out`,
  ];
  return `${tokensText(u.tokens)} tokens (${parts.join(", ")}) · ${costText(u)}`;
}

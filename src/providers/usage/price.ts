import type { ModelPrice, Pricing, TokenFigures } from "../../schema/usage.ts";

/** The table's rates for `model`: an exact name, else the longest `prefix*` it starts with (case does not matter). */
export function priceFor(model: string | null, pricing: Pricing): ModelPrice | null {
  if (!model) return null;
  const m = model.toLowerCase();
  let best: { len: number; price: ModelPrice } | null = null;
  for (const [key, price] of Object.entries(pricing.models)) {
    const k = key.toLowerCase();
    if (k === m) return price;
    if (k.endsWith("*") && m.startsWith(k.slice(0, -1)) && (!best || k.length > best.len)) best = { len: k.length, price };
  }
  return best?.price ?? null;
}

/** Estimated USD for some figures at `price` (per million tokens); null without a price. */
export function costOf(f: TokenFigures, price: ModelPrice | null): number | null {
  if (!price) return null;
  const usd =
    (f.input * price.input + f.cached * (price.cached ?? price.input) + f.cache_write * (price.cache_write ?? price.input) + f.output * price.output) /
    1_000_000;
  return Math.round(usd * 1_000_000) / 1_000_000;
}

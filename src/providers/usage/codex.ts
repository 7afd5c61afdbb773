import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, n, type Parsed } from "./claude.ts";

/**
 * A codex rollout (`<home>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`): `event_msg` lines
 * of type `token_count` carry the session's running total (`info.total_token_usage`); the last
 * one counts. Its `input_tokens` include the cached ones; `output_tokens` include reasoning.
 * The model is in the `turn_context` lines.
 */
export function codexUsage(text: string): Parsed | null {
  let total: any = null;
  let model: string | null = null;
  for (const o of jsonLines(text, (line) => line.includes('"token_count"') || line.includes('"turn_context"'))) {
    const p = o?.payload;
    if (o?.type === "turn_context" && typeof p?.model === "string") model = p.model;
    else if (o?.type === "event_msg" && p?.type === "token_count" && p.info?.total_token_usage) total = p.info.total_token_usage;
  }
  if (!total) return null;
  // cached (and, in newer codex, cache-write) tokens are parts of input_tokens
  const cached = Math.min(n(total.cached_input_tokens), n(total.input_tokens));
  const written = Math.min(n(total.cache_write_input_tokens), n(total.input_tokens) - cached);
  return { input: n(total.input_tokens) - cached - written, cached, cache_write: written, output: n(total.output_tokens), model };
}

/** The rollout of session `id` (its file name ends with the id), newest day first. */
export function findCodexRollout(home: string, id: string): string | null {
  const root = join(home, "sessions");
  if (!existsSync(root)) return null;
  const suffix = `-${id}.jsonl`;
  const walk = (dir: string, depth: number): string | null => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? 1 : -1));
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isFile() && e.name.startsWith("rollout-") && e.name.endsWith(suffix)) return p;
      if (e.isDirectory() && depth < 3) {
        const found = walk(p, depth + 1);
        if (found) return found;
      }
    }
    return null;
  };
  try {
    return walk(root, 0);
  } catch {
    return null;
  }
}

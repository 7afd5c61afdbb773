import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { TokenFigures } from "../../schema/usage.ts";

export type Parsed = TokenFigures & { model: string | null };

/** A token count from a CLI's record: a whole number ≥ 0 (anything else counts 0). */
export const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** The run's total over a conversation's messages (each counted once by its reader), null when there are none. */
export function sumFigures(figures: Iterable<TokenFigures>, model: string | null): Parsed | null {
  const t = { input: 0, cached: 0, cache_write: 0, output: 0, model };
  let any = false;
  for (const f of figures) {
    any = true;
    t.input += f.input;
    t.cached += f.cached;
    t.cache_write += f.cache_write;
    t.output += f.output;
  }
  return any ? t : null;
}

/**
 * The parsed lines of a CLI's JSONL record whose text `keep` picks (a cheap look before parsing);
 * a line that does not parse (empty, or being written) is skipped.
 */
export function* jsonLines(text: string, keep: (line: string) => boolean = () => true): Generator<any> {
  for (const line of text.split("\n")) {
    if (!keep(line)) continue;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    yield o;
  }
}

/**
 * A claude transcript (`<home>/projects/<folder>/<session id>.jsonl`): every `assistant` line
 * carries the API's `message.usage`. A response streamed in parts is written as several lines
 * with the same message id (and request id), each with the usage so far: the last one counts.
 */
export function claudeUsage(text: string): Parsed | null {
  const byMessage = new Map<string, TokenFigures>();
  let model: string | null = null;
  let anon = 0;
  for (const o of jsonLines(text, (line) => line.includes('"usage"'))) {
    const m = o?.message;
    if (o?.type !== "assistant" || !m?.usage) continue;
    const u = m.usage;
    byMessage.set(`${m.id ?? `#${anon++}`}:${o.requestId ?? ""}`, {
      input: n(u.input_tokens),
      cached: n(u.cache_read_input_tokens),
      cache_write: n(u.cache_creation_input_tokens),
      output: n(u.output_tokens),
    });
    if (typeof m.model === "string" && m.model && m.model !== "<synthetic>") model = m.model;
  }
  return sumFigures(byMessage.values(), model);
}

/** The transcript of conversation `id`: claude keeps one folder per working directory under projects/. */
export function findClaudeTranscript(home: string, id: string): string | null {
  const root = join(home, "projects");
  if (!existsSync(root)) return null;
  for (const dir of readdirSync(root)) {
    const p = join(root, dir, `${id}.jsonl`);
    if (existsSync(p)) return p;
  }
  return null;
}

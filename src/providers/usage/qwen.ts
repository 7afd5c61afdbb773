import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { jsonLines, n, sumFigures, type Parsed } from "./claude.ts";

/** qwen's auth types whose output count already holds the reasoning tokens (qwen 0.24's own rule for a response's total). */
const THOUGHTS_IN_OUTPUT = new Set(["openai", "qwen-oauth"]);

/**
 * A qwen chat (`<runtime dir>/projects/<folder>/chats/<session id>.jsonl`, qwen 0.24): every
 * model response qwen counts is a `system` record of subtype `ui_telemetry` whose
 * `qwen-code.api_response` event holds the API's usage — the same events qwen adds up for its
 * own `/stats` and its `usage_record.jsonl`. `input_token_count` includes the cached tokens;
 * `thoughts_token_count` is a part of `output_token_count` for the OpenAI-compatible auth types
 * and comes on top of it for the others. Records are appended once each (keyed by `uuid`).
 */
export function qwenUsage(text: string): Parsed | null {
  const byRecord = new Map<string, Parsed>();
  let model: string | null = null;
  let anon = 0;
  for (const o of jsonLines(text, (line) => line.includes('"ui_telemetry"') && line.includes("api_response"))) {
    const e = o?.systemPayload?.uiEvent;
    if (o?.type !== "system" || o.subtype !== "ui_telemetry" || e?.["event.name"] !== "qwen-code.api_response") continue;
    const prompt = n(e.input_token_count) || n(e.cached_content_token_count);
    const cached = Math.min(n(e.cached_content_token_count), prompt);
    const thoughts = THOUGHTS_IN_OUTPUT.has(e.auth_type) ? 0 : n(e.thoughts_token_count);
    const m = typeof e.model === "string" && e.model ? e.model : null;
    byRecord.set(typeof o.uuid === "string" ? o.uuid : `#${anon++}`, {
      input: prompt - cached,
      cached,
      cache_write: 0,
      output: n(e.output_token_count) + thoughts,
      model: m,
    });
    if (m) model = m;
  }
  return sumFigures(byRecord.values(), model);
}

/** The chat of session `id`: qwen keeps one folder per working directory under projects/. */
export function findQwenChat(home: string, id: string): string | null {
  const root = join(home, "projects");
  if (!existsSync(root) || !/^[A-Za-z0-9-]+$/.test(id)) return null;
  try {
    for (const dir of readdirSync(root)) {
      const p = join(root, dir, "chats", `${id}.jsonl`);
      if (existsSync(p)) return p;
    }
  } catch {
    return null;
  }
  return null;
}

/** Where qwen writes its chats: QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen (the launched CLI's env first). */
export function qwenHome(env: Record<string, string>): string {
  const e = { ...process.env, ...env };
  return e.QWEN_RUNTIME_DIR || e.QWEN_HOME || join(e.HOME || homedir(), ".qwen");
}

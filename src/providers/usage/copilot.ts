import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { jsonLines, n, sumFigures, type Parsed } from "./claude.ts";

/**
 * A copilot session's event log (`<home>/session-state/<session id>/events.jsonl`, copilot
 * 1.0.102): each model call leaves a `session.usage_record` event, copilot's durable accounting
 * receipt (its `session.shutdown` totals miss a call still running at exit, and the per-call
 * `assistant.usage` is never written). `inputTokens` includes the cache reads and writes;
 * `outputTokens` includes reasoning. A receipt counts once, by its accounting identity.
 */
export function copilotUsage(text: string): Parsed | null {
  const byCall = new Map<string, Parsed>();
  let model: string | null = null;
  for (const o of jsonLines(text, (line) => line.includes('"session.usage_record"'))) {
    const u = o?.data?.usage;
    if (o?.type !== "session.usage_record" || typeof u !== "object" || u === null) continue;
    const a = u.accounting;
    const key = a && typeof a.sourceSessionId === "string" && Number.isInteger(a.sequence) ? `${a.sourceSessionId}:${a.sequence}` : String(o.id ?? byCall.size);
    const cached = Math.min(n(u.cacheReadTokens), n(u.inputTokens));
    const written = Math.min(n(u.cacheWriteTokens), n(u.inputTokens) - cached);
    const m = typeof u.model === "string" && u.model ? u.model : null;
    byCall.set(key, { input: n(u.inputTokens) - cached - written, cached, cache_write: written, output: n(u.outputTokens), model: m });
    if (m) model = m;
  }
  return sumFigures(byCall.values(), model);
}

/** The event log of session `id` (the folder is named by the id `--session-id` gave it). */
export function findCopilotEvents(home: string, id: string): string | null {
  if (!/^[A-Za-z0-9-]+$/.test(id)) return null;
  const p = join(home, "session-state", id, "events.jsonl");
  return existsSync(p) ? p : null;
}

/** copilot's home: COPILOT_HOME, else ~/.copilot (the launched CLI's env first). */
export function copilotHome(env: Record<string, string>): string {
  const e = { ...process.env, ...env };
  return e.COPILOT_HOME || join(e.HOME || homedir(), ".copilot");
}

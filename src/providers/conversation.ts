import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * codex picks its own session id and writes it to `$CODEX_HOME/sessions/YYYY/MM/DD/
 * rollout-<time>-<uuid>.jsonl`. Several agents may share one CODEX_HOME and one folder, so the
 * file is told apart by what only this agent sent: its prompt file's path. Returns the id of
 * the newest such file modified since `sinceMs`, or null.
 */
export function findCodexSession(codexHome: string, sinceMs: number, needle: string): string | null {
  const root = join(codexHome, "sessions");
  if (!existsSync(root)) return null;
  const files: { path: string; mtime: number }[] = [];
  const walk = (dir: string, depth: number) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory() && depth < 3) walk(p, depth + 1);
      else if (e.isFile() && /^rollout-.*\.jsonl$/.test(e.name)) {
        const mtime = statSync(p).mtimeMs;
        if (mtime >= sinceMs - 1000) files.push({ path: p, mtime });
      }
    }
  };
  try {
    walk(root, 0);
  } catch {
    return null;
  }
  for (const f of files.sort((a, b) => b.mtime - a.mtime)) {
    const text = readFileSync(f.path, "utf8").slice(0, 2_000_000);
    if (!text.includes(needle)) continue;
    const meta = /"type"\s*:\s*"session_meta"[^\n]*?"id"\s*:\s*"([0-9a-f-]{36})"/.exec(text);
    const id = meta?.[1] ?? /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(f.path)?.[1];
    if (id) return id;
  }
  return null;
}

/**
 * What only this agent sent, as it appears in its rollout: the prompt line it was given, as
 * the JSON string codex stores it in (a quoted path's quotes and backslashes escaped again).
 */
export const codexNeedle = (promptLine: string): string => JSON.stringify(promptLine).slice(1, -1);

/** CODEX_HOME as the launched CLI sees it: the provider's env, else the process env, else ~/.codex. */
export function codexHomeOf(env: Record<string, string>): string {
  return env.CODEX_HOME || process.env.CODEX_HOME || join(env.HOME || process.env.HOME || homedir(), ".codex");
}

import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { appendLine } from "../effects/fs/atomic.ts";

/**
 * The simulated agent keeps its token usage the way the real CLIs do, in its session's
 * `.runtime/sim/<format>/` (the sim provider's `usage` sources point there), one turn per
 * submitted line, with fixed figures a test can multiply out:
 *   claude: `projects/<folder>/<id>.jsonl`, each turn an assistant message written twice
 *           (streamed: the second line carries the final usage, as claude does)
 *   codex:  `sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, a running total per turn
 */
export type TranscriptFormat = "claude" | "codex";

export const SIM_MODEL = { claude: "claude-sonnet-4-5-20250929", codex: "gpt-5-codex" } as const;
/** per turn: claude input, cache reads, cache writes, output; codex input (with cached), cached, output */
export const CLAUDE_TURN = { input: 1200, cache_read: 8000, cache_write: 2000, output: 300 };
export const CODEX_TURN = { input: 9000, cached: 6000, output: 500, reasoning: 120 };

const folderOf = (cwd: string) => cwd.replace(/[^A-Za-z0-9]/g, "-");

function claudeTurn(home: string, id: string, cwd: string, turn: number, at: string): void {
  const file = join(home, "projects", folderOf(cwd), `${id}.jsonl`);
  mkdirSync(join(file, ".."), { recursive: true });
  const base = { type: "assistant", sessionId: id, cwd, timestamp: at, requestId: `req_sim_${turn}` };
  const message = (output: number) => ({
    id: `msg_sim_${id.slice(0, 8)}_${turn}`,
    type: "message",
    role: "assistant",
    model: SIM_MODEL.claude,
    content: [{ type: "text", text: "(simulated)" }],
    usage: {
      input_tokens: CLAUDE_TURN.input,
      cache_creation_input_tokens: CLAUDE_TURN.cache_write,
      cache_read_input_tokens: CLAUDE_TURN.cache_read,
      output_tokens: output,
    },
  });
  appendLine(file, JSON.stringify({ ...base, message: message(1) }));
  appendLine(file, JSON.stringify({ ...base, message: message(CLAUDE_TURN.output) }));
}

function codexRollout(home: string, id: string, at: string): string {
  const root = join(home, "sessions");
  if (existsSync(root)) {
    for (const y of readdirSync(root))
      for (const m of readdirSync(join(root, y)))
        for (const d of readdirSync(join(root, y, m))) {
          const f = readdirSync(join(root, y, m, d)).find((n) => n.endsWith(`-${id}.jsonl`));
          if (f) return join(root, y, m, d, f);
        }
  }
  const [date, time] = at.split("T") as [string, string];
  const [y, m, d] = date.split("-");
  return join(root, y!, m!, d!, `rollout-${date}T${time.slice(0, 8).replaceAll(":", "-")}-${id}.jsonl`);
}

function codexTurn(home: string, id: string, cwd: string, turn: number, at: string): void {
  const file = codexRollout(home, id, at);
  mkdirSync(join(file, ".."), { recursive: true });
  if (!existsSync(file) || !readFileSync(file, "utf8").includes('"session_meta"'))
    appendLine(
      file,
      JSON.stringify({ timestamp: at, type: "session_meta", payload: { id, timestamp: at, cwd, originator: "agentmux_sim", cli_version: "0.0.0-sim" } }),
    );
  appendLine(file, JSON.stringify({ timestamp: at, type: "turn_context", payload: { cwd, model: SIM_MODEL.codex } }));
  const t = (n: number) => ({
    input_tokens: CODEX_TURN.input * n,
    cached_input_tokens: CODEX_TURN.cached * n,
    output_tokens: CODEX_TURN.output * n,
    reasoning_output_tokens: CODEX_TURN.reasoning * n,
    total_tokens: (CODEX_TURN.input + CODEX_TURN.output) * n,
  });
  appendLine(
    file,
    JSON.stringify({
      timestamp: at,
      type: "event_msg",
      payload: { type: "token_count", info: { total_token_usage: t(turn), last_token_usage: t(1), model_context_window: 272000 } },
    }),
  );
}

/** Record turn `turn` (1, 2, …) of conversation `id` in `format`, under the session's sim folder. */
export function recordTurn(format: TranscriptFormat, o: { sessionDir: string; id: string; cwd: string; turn: number; at?: string }): void {
  const at = o.at ?? new Date().toISOString();
  const home = join(o.sessionDir, ".runtime", "sim", format);
  (format === "claude" ? claudeTurn : codexTurn)(home, o.id, o.cwd, o.turn, at);
}

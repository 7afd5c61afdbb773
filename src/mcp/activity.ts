import { join } from "node:path";
import { appendLine } from "../effects/fs/atomic.ts";
import type { ToolCallLine } from "../schema/tool-calls.ts";
import { F } from "../protocol/paths.ts";

/**
 * Record that an agent called a tool, whether it was accepted or refused: the orchestrator's
 * watchdog counts a refused submit as work (the agent is fixing its file), not as a turn end.
 * One short line per call, appended whole; never fails the call itself.
 */
export function recordToolCall(sessionDir: string, agent: string, tool: string, ok: boolean, text: string): void {
  const line: ToolCallLine = {
    agent,
    tool,
    ok,
    at: new Date().toISOString(),
    ...(ok ? {} : { message: text.split("\n").slice(0, 4).join(" ").slice(0, 400) }),
  };
  try {
    appendLine(join(sessionDir, F.toolCalls), JSON.stringify(line));
  } catch {
    /* activity is advisory */
  }
}

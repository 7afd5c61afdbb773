import { join } from "node:path";
import { appendLine } from "../effects/fs/atomic.ts";
import { withFileLock } from "../effects/fs/lock.ts";
import type { ToolName } from "../schema/catalog.ts";
import { ToolEventLine, ToolPayloads } from "../schema/tool-events.ts";
import { F } from "../session/paths.ts";

/**
 * Appends `{"tool","timestamp","payload"}` to `<session>/tool_events.jsonl` as one write under
 * the session's tool-event lock, so concurrent MCP servers never interleave partial lines.
 */
export function appendToolEvent(sessionDir: string, tool: ToolName, payload: unknown): ToolEventLine {
  const checked = ToolPayloads[tool].parse(payload) as Record<string, unknown>;
  const line = ToolEventLine.parse({ tool, timestamp: new Date().toISOString(), payload: checked });
  const text = JSON.stringify(line) + "\n";
  withFileLock(join(sessionDir, F.toolEventsLock), () => appendLine(join(sessionDir, F.toolEvents), text));
  return line;
}

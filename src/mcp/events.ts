import { join } from "node:path";
import { appendLine } from "../effects/fs/atomic.ts";
import { withFileLock } from "../effects/fs/lock.ts";
import type { ToolName } from "../schema/catalog.ts";
import { ToolEventLine, ToolPayloadSchema, type ToolPayload } from "../schema/tool-events.ts";
import { F } from "../session/paths.ts";

/**
 * Appends `{"tool","timestamp","payload"}` to `<session>/tool_events.jsonl` as one write under
 * the session's tool-event lock, so concurrent MCP servers never interleave partial lines.
 */
export function appendToolEvent<T extends ToolName>(sessionDir: string, tool: T, payload: ToolPayload<T>): ToolEventLine {
  const checked = ToolPayloadSchema[tool].parse(payload);
  const line = ToolEventLine.parse({ tool, timestamp: new Date().toISOString(), payload: checked });
  const text = JSON.stringify(line) + "\n";
  withFileLock(join(sessionDir, F.toolEventsLock), () => appendLine(join(sessionDir, F.toolEvents), text));
  return line;
}

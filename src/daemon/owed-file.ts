import { join } from "node:path";
import type { Event } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import { owedSubmit } from "../orchestrator/owed.ts";
import { readRegularFile } from "../effects/fs/read-regular.ts";

/**
 * A turn end from an agent that owes a file alone (the summary, the design): whether that file
 * is on disk, not empty. The file watcher fires its event only once it has stayed unchanged
 * (bus/session-files.ts, 300 ms), so an agent that wrote it and ended its turn sooner owes
 * nothing and must not be reminded to write it; and as it is not writing any more, the file need
 * not wait out that window (SessionFileWatcher.finished).
 */
export function owedFileWritten(e: Event, state: State, sessionDir: string): string | null {
  if (e.type !== "agent_turn_ended") return null;
  const owed = owedSubmit(state, e.agent);
  if (!owed || owed.tool) return null;
  const read = readRegularFile(join(sessionDir, owed.file));
  return read.ok && read.text.trim() ? owed.file : null;
}

import { join } from "node:path";
import type { Event } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import { owedSubmit } from "../orchestrator/owed.ts";
import { readRegularFile } from "../effects/fs/read-regular.ts";

/**
 * A turn end from an agent that owes a file alone (the summary, the design): whether that file
 * is on disk, not empty. The file watcher fires its event only once it has stayed unchanged
 * (bus/session-files.ts, 300 ms), so an agent that wrote it and ended its turn sooner owes
 * nothing and must not be reminded to write it.
 */
export function withOwedFile(e: Event, state: State, sessionDir: string): Event {
  if (e.type !== "agent_turn_ended") return e;
  const owed = owedSubmit(state, e.agent);
  if (!owed || owed.tool) return e;
  const read = readRegularFile(join(sessionDir, owed.file));
  return read.ok && read.text.trim() ? { ...e, owed_file_written: true } : e;
}

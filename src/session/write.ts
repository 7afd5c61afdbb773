import { existsSync } from "node:fs";
import type { RuntimeState } from "../schema/runtime.ts";
import type { State } from "../schema/state.ts";
import { writeSessionFile } from "./file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";

/**
 * Write state.json atomically (validated first: an invalid state is refused, naming the
 * field), then the seed's tool_event_state.json mirror of the cursor. state.json's own
 * `tool_cursor` is the authoritative copy, so a crash between the two writes cannot apply an
 * event twice.
 */
export function writeState(sessionDir: string, state: State, opts: { existingDir?: boolean } = {}): void {
  writeSessionFile(sessionDir, SESSION_FILES.state, state, opts);
  writeStateMirror(sessionDir, state, opts);
}

/** tool_event_state.json, the seed's mirror of state.json's tool cursor (written after state.json). */
export function writeStateMirror(sessionDir: string, state: State, opts: { existingDir?: boolean } = {}): void {
  if (state.tool_cursor !== undefined) writeSessionFile(sessionDir, SESSION_FILES.toolEventState, { applied_offset: state.tool_cursor }, opts);
}

export function writeRuntime(sessionDir: string, runtime: RuntimeState): void {
  if (!existsSync(sessionDir)) return;
  writeSessionFile(sessionDir, SESSION_FILES.runtime, runtime);
}

import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeJsonAtomic } from "../effects/fs/atomic.ts";
import type { RuntimeState } from "../schema/runtime.ts";
import { State } from "../schema/state.ts";
import { WorkflowEvent } from "../schema/catalog.ts";
import { F } from "./paths.ts";

/**
 * Write state.json atomically (validated first: `last_event` must be in the catalog), then the
 * seed's tool_event_state.json mirror of the cursor. state.json's own `tool_cursor` is the
 * authoritative copy, so a crash between the two writes cannot apply an event twice.
 */
export function writeState(sessionDir: string, state: State): void {
  WorkflowEvent.parse(state.last_event);
  const checked = State.parse(state);
  writeJsonAtomic(join(sessionDir, F.state), checked);
  if (checked.tool_cursor !== undefined) writeJsonAtomic(join(sessionDir, F.toolEventState), { applied_offset: checked.tool_cursor });
}

export function writeRuntime(sessionDir: string, runtime: RuntimeState): void {
  if (!existsSync(sessionDir)) return;
  writeJsonAtomic(join(sessionDir, F.runtime), runtime);
}

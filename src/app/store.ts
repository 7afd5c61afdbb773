import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AgentmuxError } from "../errors.ts";
import { writeJsonAtomic } from "../effects/fs/atomic.ts";
import { RuntimeState } from "../schema/runtime.ts";
import { State } from "../schema/state.ts";
import { WorkflowEvent } from "../schema/catalog.ts";
import { F } from "../session/paths.ts";

/** Read and validate state.json; a broken file is an error naming the field. */
export function readState(sessionDir: string): State {
  const path = join(sessionDir, F.state);
  if (!existsSync(path)) throw new AgentmuxError("session", `no state.json in ${sessionDir}`, { where: path, hint: "is this a session folder? see `agentmux sessions`" });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new AgentmuxError("session", `state.json is not valid JSON: ${(e as Error).message}`, { where: path });
  }
  const parsed = State.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AgentmuxError("session", `state.json: ${issue.path.join(".") || "(root)"}: ${issue.message}`, { where: path });
  }
  return parsed.data;
}

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

export function readRuntime(sessionDir: string): RuntimeState | null {
  try {
    return RuntimeState.parse(JSON.parse(readFileSync(join(sessionDir, F.runtime), "utf8")));
  } catch {
    return null;
  }
}

export function writeRuntime(sessionDir: string, runtime: RuntimeState): void {
  if (!existsSync(sessionDir)) return;
  writeJsonAtomic(join(sessionDir, F.runtime), runtime);
}

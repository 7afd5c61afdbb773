import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { State } from "../schema/state.ts";
import { countLines, readCreatedFiles } from "../session/data.ts";
import { lastHeartbeat } from "../session/liveness.ts";
import { F } from "../protocol/paths.ts";
import { readRuntime, readState } from "../session/read.ts";
import type { SnapshotInput } from "./snapshot.ts";

const mtime = (path: string) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

/** A stopped orchestrator's last sign of life: its log or its heartbeat, whichever is later. */
export function lastSignOfLife(dir: string): number | undefined {
  const times = [mtime(join(dir, F.orchestratorLog)), lastHeartbeat(dir)].filter((t): t is number => t !== undefined);
  return times.length ? Math.max(...times) : undefined;
}

/** The tool calls so far: tool_events.jsonl's lines, or for an archive (which keeps no tool_events.jsonl) the count its run applied. */
export function toolCalls(dir: string, state: State): number {
  const file = join(dir, F.toolEvents);
  return existsSync(file) ? countLines(file) : (state.applied_tool_events ?? 0);
}

/**
 * What `snapshot()` needs of a session folder (the run API's one reader; the derivation itself
 * reads nothing). `countToolEvents: false` takes the count the orchestrator applied instead of
 * scanning tool_events.jsonl (a follower that reads every 100 ms). Throws the session's named
 * errors when state.json is missing or invalid.
 */
export function readSnapshotInput(dir: string, o: { id: string; live: boolean; now: number; countToolEvents?: boolean }): SnapshotInput {
  const state = readState(dir);
  const worktree = state.worktree_path;
  return {
    dir,
    state,
    runtime: readRuntime(dir),
    id: o.id,
    live: o.live,
    toolEvents: o.countToolEvents === false ? (state.applied_tool_events ?? 0) : toolCalls(dir, state),
    now: o.now,
    lastSeen: lastSignOfLife(dir),
    worktreeGone: worktree ? !existsSync(worktree) : false,
    created: readCreatedFiles(dir),
  };
}

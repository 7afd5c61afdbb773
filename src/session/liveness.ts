import { closeSync, openSync, readFileSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { ownStartToken, sameProcessAlive } from "../effects/process/identity.ts";
import { F } from "../protocol/paths.ts";

export const ORCHESTRATOR_PID = `${F.runtimeDir}/orchestrator.pid`;

/** A pid as recorded in a pid or lock file: `<pid> <start token>` (older files: the pid alone). */
export type PidRecord = { pid: number; start?: string };

export function parsePidRecord(text: string): PidRecord | null {
  const [pid, start] = text.trim().split(/\s+/, 2);
  const n = Number(pid);
  return Number.isInteger(n) && n > 0 ? { pid: n, ...(start ? { start } : {}) } : null;
}

export const ownPidRecord = (): PidRecord => ({ pid: process.pid, start: ownStartToken() });

/**
 * Whether the recorded process still runs. kill(pid, 0) alone is fooled by a zombie and by a
 * pid the system gave to another process since: the start token must match too (for a record
 * without one, the command line must contain `needle`).
 */
export function recordAlive(r: PidRecord, needle?: string): boolean {
  return r.pid !== process.pid && sameProcessAlive(r.pid, { start: r.start, needle });
}

/** `<session>/.runtime/orchestrator.pid` for this process. */
export function writeOrchestratorPid(sessionDir: string): void {
  const r = ownPidRecord();
  writeFileAtomic(join(sessionDir, ORCHESTRATOR_PID), `${r.pid} ${r.start ?? ""}\n`);
}

/** The pid of a live orchestrator of this session, if any. */
export function liveOrchestrator(sessionDir: string): number | null {
  let r: PidRecord | null;
  try {
    r = parsePidRecord(readFileSync(join(sessionDir, ORCHESTRATOR_PID), "utf8"));
  } catch {
    return null;
  }
  return r && recordAlive(r, sessionDir) ? r.pid : null;
}

/** Marks this orchestrator alive now (the heartbeat file's mtime); never throws. */
export function touchHeartbeat(sessionDir: string): void {
  const path = join(sessionDir, F.heartbeat);
  const t = new Date();
  try {
    utimesSync(path, t, t);
  } catch {
    try {
      closeSync(openSync(path, "a"));
    } catch {
      // a session folder being removed: nothing to mark
    }
  }
}

/** When an orchestrator of this session last marked itself alive (ms), if ever. */
export function lastHeartbeat(sessionDir: string): number | undefined {
  try {
    return statSync(join(sessionDir, F.heartbeat)).mtimeMs;
  } catch {
    return undefined;
  }
}

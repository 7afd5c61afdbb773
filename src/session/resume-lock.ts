import { mkdirSync, rmSync } from "node:fs";
import { breakStaleLock, readLockText } from "./stale-lock.ts";
import { join } from "node:path";
import { createComplete } from "../effects/fs/atomic.ts";
import { ownPidRecord, parsePidRecord, recordAlive } from "./liveness.ts";
import { F } from "../protocol/paths.ts";

/**
 * `agentmux resume` takes its session before it touches anything (a stale tmux session, the
 * branch, the orchestrator): `.runtime/resume.lock` names the launcher (pid + start token) until
 * the new orchestrator runs. A second resume of the same session finds it and stops; a lock whose
 * launcher is gone is broken.
 */
export const RESUME_LOCK = `${F.runtimeDir}/resume.lock`;

export function acquireResume(sessionDir: string): { ok: true } | { ok: false; pid: number } {
  const path = join(sessionDir, RESUME_LOCK);
  mkdirSync(join(sessionDir, F.runtimeDir), { recursive: true });
  const me = ownPidRecord();
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createComplete(path, `${me.pid} ${me.start ?? ""}\n`)) return { ok: true };
    const seen = readLockText(path);
    const holder = seen === null ? null : parsePidRecord(seen);
    if (holder && recordAlive(holder, "agentmux")) return { ok: false, pid: holder.pid };
    if (seen !== null) breakStaleLock(path, seen);
  }
  const holder = parsePidRecord(readLockText(path) ?? "");
  return { ok: false, pid: holder?.pid ?? 0 };
}

/** Give the session up (only when this process holds it). */
export function releaseResume(sessionDir: string): void {
  const path = join(sessionDir, RESUME_LOCK);
  if (parsePidRecord(readLockText(path) ?? "")?.pid === process.pid) rmSync(path, { force: true });
}

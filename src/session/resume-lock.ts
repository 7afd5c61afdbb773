import { linkSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { ownPidRecord, parsePidRecord, recordAlive } from "./liveness.ts";
import { F } from "../protocol/paths.ts";

/**
 * `agentmux resume` takes its session before it touches anything (a stale tmux session, the
 * branch, the orchestrator): `.runtime/resume.lock` names the launcher (pid + start token) until
 * the new orchestrator runs. A second resume of the same session finds it and stops; a lock whose
 * launcher is gone is broken.
 */
export const RESUME_LOCK = `${F.runtimeDir}/resume.lock`;

let count = 0;

export function acquireResume(sessionDir: string): { ok: true } | { ok: false; pid: number } {
  const path = join(sessionDir, RESUME_LOCK);
  mkdirSync(join(sessionDir, F.runtimeDir), { recursive: true });
  const me = ownPidRecord();
  for (let attempt = 0; attempt < 5; attempt++) {
    const tmp = `${path}.${process.pid}.${count++}.tmp`;
    writeFileAtomic(tmp, `${me.pid} ${me.start ?? ""}\n`);
    try {
      linkSync(tmp, path);
      return { ok: true };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    } finally {
      rmSync(tmp, { force: true });
    }
    const seen = readOrNull(path);
    const holder = seen === null ? null : parsePidRecord(seen);
    if (holder && recordAlive(holder, "agentmux")) return { ok: false, pid: holder.pid };
    if (seen !== null) breakStale(path, seen);
  }
  const holder = parsePidRecord(readOrNull(path) ?? "");
  return { ok: false, pid: holder?.pid ?? 0 };
}

/** Give the session up (only when this process holds it). */
export function releaseResume(sessionDir: string): void {
  const path = join(sessionDir, RESUME_LOCK);
  if (parsePidRecord(readOrNull(path) ?? "")?.pid === process.pid) rmSync(path, { force: true });
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** Move the dead holder's lock aside and delete it, unless another resume replaced it meanwhile. */
function breakStale(path: string, seen: string): void {
  const aside = `${path}.stale-${process.pid}-${count++}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (readOrNull(aside) !== seen) {
    try {
      linkSync(aside, path);
    } catch {
      /* a third resume took the place */
    }
  }
  rmSync(aside, { force: true });
}

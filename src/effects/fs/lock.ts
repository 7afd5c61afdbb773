import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { defineError } from "../../errors.ts";
import { ownStartToken, sameProcessAlive } from "../process/identity.ts";

/** How long a waiter keeps trying, and when a held lock counts as abandoned. */
export const LOCK_WAIT_MS = 10_000;
export const LOCK_STALE_MS = 2_000;

/** A lock another live process kept for longer than a waiter may wait. */
export const LockTimeout = defineError("LockTimeout", "session", (d: { lockPath: string; waitedMs: number }) => ({
  message: `another agentmux process held ${d.lockPath} for more than ${d.waitedMs} ms`,
  where: d.lockPath,
  hint: "try again; if it keeps happening, check which agentmux process holds it (the file holds its pid)",
}));

function holderGone(lockPath: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lockPath, "utf8").trim());
  } catch {
    return false; // vanished or unreadable: the next attempt decides
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // gone, or a zombie (dead, not yet reaped)
  return !sameProcessAlive(pid, {});
}

/**
 * A cross-process lock based on O_EXCL lock files holding the holder's pid. A lock is broken
 * when its holder is dead, or when it is older than `staleMs`; `staleMs` is well below the
 * waiters' `timeoutMs`, so a crashed holder never makes a waiter give up. Synchronous: held only
 * around tiny critical sections (one append, one small file rewrite).
 */
export function withFileLock<T>(lockPath: string, fn: () => T, opts: { timeoutMs?: number; staleMs?: number } = {}): T {
  const timeoutMs = opts.timeoutMs ?? LOCK_WAIT_MS;
  const staleMs = Math.min(opts.staleMs ?? LOCK_STALE_MS, timeoutMs / 2);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException)?.code !== "EEXIST") throw e;
      try {
        if (Date.now() - statSync(lockPath).mtimeMs > staleMs || holderGone(lockPath)) rmSync(lockPath, { force: true });
      } catch {
        /* vanished between calls: retry */
      }
      if (Date.now() > deadline) throw new LockTimeout({ lockPath, waitedMs: timeoutMs });
      Bun.sleepSync(2);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockPath, { force: true });
  }
}

/**
 * The same O_EXCL lock for a critical section that awaits (a branch made and checked out, a
 * port offset chosen and recorded). Its file names the holder by pid and start token, and it is
 * broken only when that process is gone: never for its age, since a large checkout may hold it
 * for a while. Waiters poll until `timeoutMs`.
 */
export async function withFileLockAsync<T>(lockPath: string, fn: () => Promise<T>, opts: { timeoutMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, `${process.pid} ${ownStartToken()}`);
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException)?.code !== "EEXIST") throw e;
      if (asyncHolderGone(lockPath)) breakLock(lockPath);
      if (Date.now() > deadline) throw new LockTimeout({ lockPath, waitedMs: opts.timeoutMs ?? 120_000 });
      await Bun.sleep(5);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockPath, { force: true });
  }
}

function asyncHolderGone(lockPath: string): boolean {
  let text: string;
  try {
    text = readFileSync(lockPath, "utf8");
  } catch {
    return false;
  }
  const [pid, start] = text.trim().split(/\s+/, 2);
  const n = Number(pid);
  // a file being written (empty for a moment) is not abandoned
  if (!Number.isInteger(n) || n <= 0) return Date.now() - mtimeOf(lockPath) > LOCK_STALE_MS;
  return !sameProcessAlive(n, start ? { start } : {});
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** Move a dead holder's lock aside, then delete it: of two waiters breaking it, one does. */
function breakLock(lockPath: string): void {
  const aside = `${lockPath}.broken-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return;
  }
  if (!asyncHolderGone(aside)) {
    // another waiter took the lock between our check and the rename: give it back
    try {
      linkSync(aside, lockPath);
    } catch {
      /* a third took the place */
    }
  }
  rmSync(aside, { force: true });
}

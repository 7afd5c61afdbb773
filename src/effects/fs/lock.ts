import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { defineError } from "../../errors.ts";
import { sameProcessAlive } from "../process/identity.ts";

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

import { closeSync, openSync, rmSync, statSync, writeSync } from "node:fs";

/**
 * A cross-process lock based on O_EXCL lock files. A lock older than `staleMs`
 * (its holder died) is broken. Synchronous: held only around tiny critical sections.
 */
export function withFileLock<T>(lockPath: string, fn: () => T, opts: { timeoutMs?: number; staleMs?: number } = {}): T {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const staleMs = opts.staleMs ?? 10000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e: any) {
      if (e?.code !== "EEXIST") throw e;
      try {
        if (Date.now() - statSync(lockPath).mtimeMs > staleMs) rmSync(lockPath, { force: true });
      } catch {
        /* vanished between calls: retry */
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${lockPath}`);
      Bun.sleepSync(2);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockPath, { force: true });
  }
}

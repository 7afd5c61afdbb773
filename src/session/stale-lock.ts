import { linkSync, readFileSync, renameSync, rmSync } from "node:fs";

let asideCount = 0;

/** A lock file's text, or null when it is gone (or unreadable). */
export function readLockText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * Remove a lock whose holder is gone, unless another process replaced it since it was read as
 * `seen`: the lock is moved aside first, and given back when what was moved is not what was read.
 */
export function breakStaleLock(path: string, seen: string): void {
  const aside = `${path}.stale-${process.pid}-${asideCount++}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (readLockText(aside) !== seen) {
    try {
      linkSync(aside, path);
    } catch {
      /* a third process took the place; it holds the lock now */
    }
  }
  rmSync(aside, { force: true });
}

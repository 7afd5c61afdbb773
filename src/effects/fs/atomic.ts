import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync, appendFileSync } from "node:fs";
import { dirname, basename, join } from "node:path";

let counter = 0;

/**
 * Write a durable file atomically: a temp file in the same folder, fsync, rename.
 * Readers see either the old or the new content, never a half-written file.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "w", 0o644);
    const buf = typeof content === "string" ? Buffer.from(content) : content;
    for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    // every failure (a full disk mid-write, a failed fsync or rename) leaves no temp file behind
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {}
    }
    rmSync(tmp, { force: true });
    throw e;
  }
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + "\n");
}

/**
 * Append one whole line. O_APPEND writes of a single buffer below PIPE_BUF-ish sizes are not
 * interleaved by the kernel on local filesystems; callers that may race across processes
 * should hold `withFileLock` as well.
 */
export function appendLine(path: string, line: string): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, line.endsWith("\n") ? line : line + "\n");
}

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Why a file could not be read as text. */
export type ReadFailure = { reason: "missing" | "directory" | "not-a-file" | "too-large" | "unreadable"; message: string };
export type ReadResult = { ok: true; text: string } | ({ ok: false } & ReadFailure);

/** Files agentmux reads (configs, artifacts, session files) are small; this bounds a hostile one. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Read a regular file as UTF-8, at most `maxBytes`. Opened non-blocking and checked with
 * fstat before any read, so a FIFO, a socket or a device (/dev/zero, /dev/stdin) is refused
 * at once instead of blocking or filling memory, and a file swapped after a stat cannot slip in.
 */
export function readRegularFile(path: string, maxBytes = MAX_FILE_BYTES): ReadResult {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: "missing", message: "file not found" };
    return { ok: false, reason: "unreadable", message: `cannot open: ${(e as Error).message}` };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { ok: false, reason: "directory", message: "is a directory, not a file" };
    if (!st.isFile()) {
      const kind = st.isFIFO() ? "a FIFO" : st.isSocket() ? "a socket" : st.isCharacterDevice() || st.isBlockDevice() ? "a device" : "not a regular file";
      return { ok: false, reason: "not-a-file", message: `is ${kind}, not a regular file; agentmux reads only regular files` };
    }
    if (st.size > maxBytes) return { ok: false, reason: "too-large", message: `is ${st.size} bytes; the limit is ${maxBytes}` };
    // the size may grow while reading: read at most one byte past the limit to notice
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let got = 0;
    for (let n; got < buf.length && (n = readSync(fd, buf, got, buf.length - got, null)) > 0;) got += n;
    if (got > maxBytes) return { ok: false, reason: "too-large", message: `is more than ${maxBytes} bytes` };
    return { ok: true, text: buf.toString("utf8", 0, got) };
  } catch (e) {
    return { ok: false, reason: "unreadable", message: `cannot read: ${(e as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

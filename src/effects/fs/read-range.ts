import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/**
 * The bytes of a file from `start` (negative: that many bytes before the end) to its end,
 * or null when the file cannot be opened. Reads what is there at the moment of the call.
 * `shared`: in a SharedArrayBuffer when there are at least that many bytes (a second thread reads them too).
 */
export function readFrom(path: string, start: number, shared = Infinity): { buf: Buffer; start: number } | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const from = start < 0 ? Math.max(0, size + start) : start;
    if (size <= from) return { buf: Buffer.alloc(0), start: from };
    const buf = size - from >= shared ? Buffer.from(new SharedArrayBuffer(size - from)) : Buffer.alloc(size - from);
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, from + read);
      if (n <= 0) break;
      read += n;
    }
    return { buf: buf.subarray(0, read), start: from };
  } finally {
    closeSync(fd);
  }
}

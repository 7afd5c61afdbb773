import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
  appendFileSync,
} from "node:fs";
import { dirname, basename, join } from "node:path";
import { keepBeside, tempDirFor } from "./temp-place.ts";

let counter = 0;

/** Errors of the own temp folder that the target's own folder does not have. */
const PLACE_REFUSED = new Set(["EXDEV", "EROFS", "EACCES", "EPERM"]);

/**
 * Write a durable file atomically: a temp file on the same filesystem, fsync, rename.
 * Readers see either the old or the new content, never a half-written file. The temp file is
 * made outside the checkout when it can be (temp-place.ts: a tool walking the checkout never
 * sees one vanish), else in the same folder. The folder is created when missing, unless
 * `existingDir`: then a missing folder is an ENOENT error and nothing is created (a live
 * session's state must not bring a deleted session folder back).
 */
export function writeFileAtomic(path: string, content: string | Uint8Array, opts: { mode?: number; existingDir?: boolean } = {}): void {
  const dir = dirname(path);
  if (!opts.existingDir) mkdirSync(dir, { recursive: true });
  const place = tempDirFor(dir);
  try {
    writeVia(place, path, content, opts.mode);
  } catch (e) {
    if (place === dir || !PLACE_REFUSED.has((e as NodeJS.ErrnoException)?.code ?? "")) throw e;
    keepBeside(dir); // another mount of the same disk (renames cannot cross it), or an own folder this process cannot write (a sandbox)
    writeVia(dir, path, content, opts.mode);
  }
}

function writeVia(place: string, path: string, content: string | Uint8Array, mode: number | undefined): void {
  const tmp = join(place, `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "w", mode ?? 0o644);
    writeAll(fd, typeof content === "string" ? Buffer.from(content) : content);
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
    try {
      rmSync(tmp, { force: true });
    } catch {
      // a read-only folder refuses the removal too: the first failure is the one to report
    }
    throw e;
  }
}

/**
 * Create `path` holding `content`, complete from its first instant, only when nothing is there:
 * a temp file (outside the checkout when it can be, as writeFileAtomic) hard-linked into place.
 * False when `path` exists (a lock another process holds).
 */
export function createComplete(path: string, content: string): boolean {
  const dir = dirname(path);
  const place = tempDirFor(dir);
  const tmp = join(place, `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
  try {
    writeVia(place, tmp, content, undefined);
    linkSync(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (!PLACE_REFUSED.has(code ?? "") || place === dir) throw e;
    keepBeside(dir); // as writeFileAtomic: the temp file goes beside the target from now on
  } finally {
    try {
      rmSync(tmp, { force: true });
    } catch {
      /* never made (a folder this process cannot write) */
    }
  }
  return createComplete(path, content);
}

function writeAll(fd: number, data: Uint8Array, position?: number): void {
  for (let done = 0; done < data.length;) {
    const n = writeSync(fd, data, done, data.length - done, position === undefined ? null : position + done);
    if (n <= 0) throw new Error("write made no progress");
    done += n;
  }
}

/**
 * Append one record line to a log that other code reads line by line, so that a failure can
 * never glue two records together or leave half a record behind:
 *   - the record starts on a fresh line (a torn last line — a crash or a full disk mid-append —
 *     is terminated first, and stays a malformed line of its own for the reader to report);
 *   - the bytes are written and fsynced before this returns;
 *   - when the write fails, the file is cut back to its old length and the error is thrown,
 *     so the caller never reports a record as written that is not.
 * Callers racing across processes hold `withFileLock`.
 */
export function appendRecord(path: string, record: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "a+");
  try {
    const size = fstatSync(fd).size;
    let fresh = true;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      fresh = last[0] === 0x0a;
    }
    const data = Buffer.from(`${fresh ? "" : "\n"}${record.replace(/\n+$/, "")}\n`);
    try {
      writeAll(fd, data);
      fsyncSync(fd);
    } catch (e) {
      try {
        ftruncateSync(fd, size);
      } catch {
        /* the reader reports what is left as a torn line */
      }
      throw e;
    }
  } finally {
    closeSync(fd);
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

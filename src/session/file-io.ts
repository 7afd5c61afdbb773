import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { writeFailed } from "../effects/fs/io-error.ts";
import { readRegularFile } from "../effects/fs/read-regular.ts";
import { claimFile } from "./claim.ts";
import type { SessionFile } from "../protocol/files.ts";
import { SessionFileInvalid, SessionFileMissing, SessionFileRefused } from "./errors.ts";
import { zodProblems, type Problem } from "./problems.ts";
import { formatStructured, parseStructured } from "./syntax.ts";

export { SessionFileInvalid, SessionFileMissing, SessionFileRefused };

export type FileResult<T> = { ok: true; value: T } | { ok: false; missing: boolean; problems: Problem[] };

const pathOf = (dir: string, f: SessionFile<unknown>) => join(dir, f.path);

/** Text as the entry's content: parsed by its syntax (JSON/YAML) and checked by its schema. */
export function parseFileText<T>(f: SessionFile<T>, text: string): FileResult<T> {
  let data: unknown = text;
  if (f.syntax === "json" || f.syntax === "yaml") {
    const parsed = parseStructured(f.syntax, text);
    if (!parsed.ok) return { ok: false, missing: false, problems: parsed.problems };
    data = parsed.data;
  }
  const r = f.schema.safeParse(data);
  return r.success ? { ok: true, value: r.data } : { ok: false, missing: false, problems: zodProblems(r.error, data) };
}

/** Read and check a file; missing, unreadable or invalid files come back as problems, never as exceptions. */
export function inspectSessionFile<T>(dir: string, f: SessionFile<T>): FileResult<T> {
  const read = readRegularFile(pathOf(dir, f));
  if (!read.ok) return { ok: false, missing: read.reason === "missing", problems: [{ path: "", message: read.message }] };
  return parseFileText(f, read.text);
}

/** Read a file that must be there and valid: the typed content, or SessionFileMissing / SessionFileInvalid. */
export function readSessionFile<T>(dir: string, f: SessionFile<T>): T {
  const r = inspectSessionFile(dir, f);
  if (r.ok) return r.value;
  if (r.missing) throw new SessionFileMissing({ path: pathOf(dir, f), name: f.path });
  throw new SessionFileInvalid({ path: pathOf(dir, f), name: f.path, problems: r.problems });
}

/** The file's content when it is there and valid, else undefined (optional files). */
export function readOptionalSessionFile<T>(dir: string, f: SessionFile<T>): T | undefined {
  const r = inspectSessionFile(dir, f);
  return r.ok ? r.value : undefined;
}

/** The text a value is written as, after checking it against the entry's schema; SessionFileRefused when it breaks it. */
export function sessionFileText<T>(dir: string, f: SessionFile<T>, value: T): string {
  const r = f.schema.safeParse(value);
  if (!r.success) throw new SessionFileRefused({ path: pathOf(dir, f), name: f.path, problems: zodProblems(r.error, value) });
  if (f.syntax === "json" || f.syntax === "yaml") return formatStructured(f.syntax, r.data);
  if (typeof r.data !== "string")
    throw new SessionFileRefused({ path: pathOf(dir, f), name: f.path, problems: [{ path: "", message: `a ${f.syntax} file takes text` }] });
  return r.data;
}

/** Write a file atomically, only when the value satisfies the entry's schema (`existingDir`: see writeFileAtomic). */
export function writeSessionFile<T>(dir: string, f: SessionFile<T>, value: T, opts: { existingDir?: boolean } = {}): void {
  const text = sessionFileText(dir, f, value);
  try {
    writeFileAtomic(pathOf(dir, f), text, opts);
  } catch (e) {
    throw writeFailed(f.path, pathOf(dir, f), e); // a full or read-only disk named (ENOSPC, EROFS)
  }
}

/**
 * Take a request file exactly once (renamed away, read, deleted): null when there is none,
 * else its checked content or the problems that made it unreadable.
 */
export function takeSessionFile<T>(dir: string, f: SessionFile<T>): FileResult<T> | null {
  const text = claimFile(pathOf(dir, f));
  return text === null ? null : parseFileText(f, text);
}

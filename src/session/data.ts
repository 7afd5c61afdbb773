import { readFrom } from "../effects/fs/read-range.ts";
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeState } from "../schema/runtime.ts";
import type { State } from "../schema/state.ts";
import { F } from "../protocol/paths.ts";
import { readRuntime, readState } from "./read.ts";

/** One line of created_files.log: `YYYY-MM-DD HH:MM:SS  <feature-relative path>` (local time). */
export type CreatedFile = { at: number; path: string };

/** Everything the monitor and `status` show, read from a session folder (never written). */
export type SessionData = {
  dir: string;
  state: State;
  runtime?: RuntimeState;
  created: CreatedFile[];
};

export function parseCreatedFiles(text: string): CreatedFile[] {
  const out: CreatedFile[] = [];
  for (const line of text.split("\n")) {
    const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)\s+(.+)$/.exec(line);
    if (!m) continue;
    const at = new Date(`${m[1]}T${m[2]}`).getTime();
    if (!Number.isNaN(at)) out.push({ at, path: m[3]!.trim() });
  }
  return out;
}

/** The last `maxBytes` of created_files.log (the monitor shows only the most recent entries). */
export function readCreatedFiles(dir: string, maxBytes = 64 * 1024): CreatedFile[] {
  const chunk = readFrom(join(dir, F.createdFiles), -maxBytes);
  if (!chunk) return [];
  let text = chunk.buf.toString("utf8");
  if (chunk.start > 0) text = text.slice(text.indexOf("\n") + 1);
  return parseCreatedFiles(text);
}

export function readSessionData(dir: string): SessionData {
  return { dir, state: readState(dir), runtime: readRuntime(dir), created: readCreatedFiles(dir) };
}

/** Number of lines in a file by a byte scan, without parsing (tool_events.jsonl can be large). */
export function countLines(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return 0;
  }
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let n = 0;
    let last = 10;
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, null);
      if (got <= 0) break;
      const chunk = got === buf.length ? buf : buf.subarray(0, got);
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
      last = chunk[got - 1]!;
    }
    return last === 10 ? n : n + 1;
  } finally {
    closeSync(fd);
  }
}

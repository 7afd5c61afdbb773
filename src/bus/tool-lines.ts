import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import { locateJsonError } from "../artifacts/json-locate.ts";
import { formatProblem, zodProblems } from "../artifacts/problems.ts";
import { ToolEventLine } from "../schema/tool-events.ts";

export type ToolLine = { value: ToolEventLine | null; error?: string; end: number };

/**
 * The complete lines of tool_events.jsonl after byte offset `from`. A trailing partial line
 * (a writer mid-append) is left for the next read. `end` is the byte offset after each line.
 * A malformed line's `error` names the file and its 1-based line number.
 */
export function readToolLines(path: string, from: number): ToolLine[] {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= from) return [];
    const buf = Buffer.alloc(size - from);
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, from + read);
      if (n <= 0) break;
      read += n;
    }
    const out: ToolLine[] = [];
    let start = 0;
    let lineInChunk = 0;
    let linesBefore: number | undefined; // counted only when a line is bad (rare)
    for (let i = 0; i < read; i++) {
      if (buf[i] !== 0x0a) continue;
      const text = buf.toString("utf8", start, i).trim();
      const end = from + i + 1;
      start = i + 1;
      lineInChunk++;
      if (!text) continue;
      const line = parseLine(text, end);
      if (line.error) {
        linesBefore ??= countNewlines(fd, from);
        line.error = `${basename(path)} line ${linesBefore + lineInChunk}: ${line.error}`;
      }
      out.push(line);
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

function countNewlines(fd: number, upTo: number): number {
  const chunk = Buffer.alloc(1 << 16);
  let n = 0;
  for (let pos = 0; pos < upTo; ) {
    const got = readSync(fd, chunk, 0, Math.min(chunk.length, upTo - pos), pos);
    if (got <= 0) break;
    for (let i = 0; i < got; i++) if (chunk[i] === 0x0a) n++;
    pos += got;
  }
  return n;
}

function parseLine(text: string, end: number): ToolLine {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const at = locateJsonError(text);
    return { value: null, error: at ? `not JSON: column ${at.column}: ${at.message}` : `not JSON: ${(e as Error).message}`, end };
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { value: null, error: 'not a JSON object with "tool", "timestamp" and "payload"', end };
  }
  const parsed = ToolEventLine.safeParse(raw);
  if (!parsed.success) return { value: null, error: zodProblems(parsed.error, raw).map(formatProblem).join("; "), end };
  return { value: parsed.data, end };
}

import { closeSync, openSync, readSync } from "node:fs";
import { readFrom } from "../effects/fs/read-range.ts";
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
  const chunk = readFrom(path, from);
  if (!chunk) return [];
  const { buf } = chunk;
  const out: ToolLine[] = [];
  let start = 0;
  let lineInChunk = 0;
  let linesBefore: number | undefined; // counted only when a line is bad (rare)
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] !== 0x0a) continue;
    const text = buf.toString("utf8", start, i).trim();
    const end = from + i + 1;
    start = i + 1;
    lineInChunk++;
    if (!text) continue;
    const line = parseLine(text, end);
    if (line.error) {
      linesBefore ??= countNewlines(path, from);
      line.error = `${basename(path)} line ${linesBefore + lineInChunk}: ${line.error}`;
    }
    out.push(line);
  }
  return out;
}

/** Newlines in the first `upTo` bytes, read in 64 KB pieces (the log can be large). */
function countNewlines(path: string, upTo: number): number {
  const fd = openSync(path, "r");
  try {
    const piece = Buffer.alloc(1 << 16);
    let n = 0;
    for (let pos = 0; pos < upTo; ) {
      const got = readSync(fd, piece, 0, Math.min(piece.length, upTo - pos), pos);
      if (got <= 0) break;
      for (let i = 0; i < got; i++) if (piece[i] === 0x0a) n++;
      pos += got;
    }
    return n;
  } finally {
    closeSync(fd);
  }
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

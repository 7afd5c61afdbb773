import { isAscii } from "node:buffer";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { readFrom } from "../effects/fs/read-range.ts";
import { basename } from "node:path";
import { locateJsonError } from "../artifacts/json-locate.ts";
import { formatProblem, zodProblems } from "../artifacts/problems.ts";
import { ToolEventLine } from "../schema/tool-events.ts";

/** One complete line: its parsed envelope (or why not), its raw text (the seal covers it), and the byte offset after it. */
export type ToolLine = { value: ToolEventLine | null; error?: string; text: string; end: number };

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
  // ASCII (the usual case): one decode of the chunk, whose string offsets are its byte offsets;
  // else each line is decoded from its own bytes
  const ascii = isAscii(buf) ? buf.toString("latin1") : null;
  const newline = (at: number) => (ascii !== null ? ascii.indexOf("\n", at) : buf.indexOf(0x0a, at));
  for (let i = newline(0); i !== -1; i = newline(start)) {
    const text = (ascii !== null ? ascii.slice(start, i) : buf.toString("utf8", start, i)).trim();
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

/**
 * The lines a resumed orchestrator has not applied: from `cursor`, unless the file no longer
 * fits the cursor — shorter than it (truncated), gone (deleted), or the cursor no longer ends a
 * line (replaced by another file) — then from the start, with the reason in `reset` (the
 * consumer skips lines applied before by their seq).
 */
export function readToolLinesForResume(path: string, cursor: number): { lines: ToolLine[]; reset?: string } {
  if (cursor <= 0) return { lines: readToolLines(path, 0) };
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return { lines: [], reset: "was deleted" };
  }
  let reset: string | undefined;
  if (size < cursor) reset = `was truncated (${size} bytes, ${cursor} had been applied)`;
  else {
    const fd = openSync(path, "r");
    try {
      const b = Buffer.alloc(1);
      readSync(fd, b, 0, 1, cursor - 1);
      if (b[0] !== 0x0a) reset = "was replaced by another file (the applied position no longer ends a line)";
    } finally {
      closeSync(fd);
    }
  }
  return { lines: readToolLines(path, reset ? 0 : cursor), ...(reset ? { reset } : {}) };
}

/** Newlines in the first `upTo` bytes, read in 64 KB pieces (the log can be large). */
function countNewlines(path: string, upTo: number): number {
  const fd = openSync(path, "r");
  try {
    const piece = Buffer.alloc(1 << 16);
    let n = 0;
    for (let pos = 0; pos < upTo;) {
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
    return { value: null, error: at ? `not JSON: column ${at.column}: ${at.message}` : `not JSON: ${(e as Error).message}`, text, end };
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { value: null, error: 'not a JSON object with "tool", "timestamp" and "payload"', text, end };
  }
  const parsed = ToolEventLine.safeParse(raw);
  if (!parsed.success) return { value: null, error: zodProblems(parsed.error, raw).map(formatProblem).join("; "), text, end };
  return { value: parsed.data, text, end };
}

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { ToolEventLine } from "../schema/tool-events.ts";

export type ToolLine = { value: ToolEventLine | null; error?: string; end: number };

/**
 * The complete lines of tool_events.jsonl after byte offset `from`. A trailing partial line
 * (a writer mid-append) is left for the next read. `end` is the byte offset after each line.
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
    for (let i = 0; i < read; i++) {
      if (buf[i] !== 0x0a) continue;
      const text = buf.toString("utf8", start, i).trim();
      const end = from + i + 1;
      start = i + 1;
      if (!text) continue;
      out.push(parseLine(text, end));
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

function parseLine(text: string, end: number): ToolLine {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { value: null, error: `not JSON: ${(e as Error).message}`, end };
  }
  const parsed = ToolEventLine.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    return { value: null, error: `${i.path.join(".") || "(line)"}: ${i.message}`, end };
  }
  return { value: parsed.data, end };
}

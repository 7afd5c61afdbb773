import { charCells } from "../views/width.ts";

/**
 * The text of a multi-line editor and its cursor, as data: every key is a pure step from one
 * buffer to the next (no blessed here; editor.ts draws it). Columns count characters (code
 * points), so the cursor never lands inside an emoji. Up and down keep the column the cursor
 * wanted (`goal`), as editors do when they pass a shorter line.
 */
export type EditBuffer = { readonly lines: readonly string[]; readonly row: number; readonly col: number; readonly goal?: number };

const chars = (s: string) => [...s];
const len = (s: string) => chars(s).length;

export function fromText(text: string): EditBuffer {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const row = lines.length - 1;
  return { lines, row, col: len(lines[row]!) };
}

export const toText = (b: EditBuffer) => b.lines.join("\n");

const at = (b: EditBuffer, row: number, col: number, lines = b.lines): EditBuffer => ({ lines, row, col });

/** Type text at the cursor (a newline in it splits the line). */
export function insert(b: EditBuffer, text: string): EditBuffer {
  let out = b;
  const parts = text.replace(/\r\n?/g, "\n").split("\n");
  parts.forEach((part, i) => {
    if (i > 0) out = newline(out);
    if (!part) return;
    const line = chars(out.lines[out.row]!);
    line.splice(out.col, 0, ...chars(part));
    const lines = [...out.lines];
    lines[out.row] = line.join("");
    out = at(out, out.row, out.col + len(part), lines);
  });
  return out;
}

export function newline(b: EditBuffer): EditBuffer {
  const line = chars(b.lines[b.row]!);
  const lines = [...b.lines];
  lines.splice(b.row, 1, line.slice(0, b.col).join(""), line.slice(b.col).join(""));
  return at(b, b.row + 1, 0, lines);
}

/** Delete the character before the cursor; at a line's start, join it to the line above. */
export function backspace(b: EditBuffer): EditBuffer {
  if (b.col > 0) {
    const line = chars(b.lines[b.row]!);
    line.splice(b.col - 1, 1);
    const lines = [...b.lines];
    lines[b.row] = line.join("");
    return at(b, b.row, b.col - 1, lines);
  }
  if (b.row === 0) return b;
  const above = b.lines[b.row - 1]!;
  const lines = [...b.lines];
  lines.splice(b.row - 1, 2, above + b.lines[b.row]!);
  return at(b, b.row - 1, len(above), lines);
}

/** Delete the character under the cursor; at a line's end, join the next line to it. */
export function del(b: EditBuffer): EditBuffer {
  const line = b.lines[b.row]!;
  if (b.col < len(line)) {
    const cs = chars(line);
    cs.splice(b.col, 1);
    const lines = [...b.lines];
    lines[b.row] = cs.join("");
    return at(b, b.row, b.col, lines);
  }
  if (b.row === b.lines.length - 1) return b;
  const lines = [...b.lines];
  lines.splice(b.row, 2, line + b.lines[b.row + 1]!);
  return at(b, b.row, b.col, lines);
}

export function left(b: EditBuffer): EditBuffer {
  if (b.col > 0) return at(b, b.row, b.col - 1);
  return b.row > 0 ? at(b, b.row - 1, len(b.lines[b.row - 1]!)) : b;
}

export function right(b: EditBuffer): EditBuffer {
  if (b.col < len(b.lines[b.row]!)) return at(b, b.row, b.col + 1);
  return b.row < b.lines.length - 1 ? at(b, b.row + 1, 0) : b;
}

function vertical(b: EditBuffer, row: number): EditBuffer {
  if (row < 0) return { ...at(b, 0, 0) };
  if (row >= b.lines.length) return at(b, b.lines.length - 1, len(b.lines[b.lines.length - 1]!));
  const goal = b.goal ?? b.col;
  return { lines: b.lines, row, col: Math.min(goal, len(b.lines[row]!)), goal };
}

export const up = (b: EditBuffer) => vertical(b, b.row - 1);
export const down = (b: EditBuffer) => vertical(b, b.row + 1);
export const home = (b: EditBuffer) => at(b, b.row, 0);
export const end = (b: EditBuffer) => at(b, b.row, len(b.lines[b.row]!));

/** Delete from the cursor to the line's end (Ctrl-K). */
export function killLine(b: EditBuffer): EditBuffer {
  const line = chars(b.lines[b.row]!);
  if (b.col >= line.length) return del(b);
  const lines = [...b.lines];
  lines[b.row] = line.slice(0, b.col).join("");
  return at(b, b.row, b.col, lines);
}

/**
 * The first character shown of the cursor's line, scrolled as little as needed so that the text
 * from it up to the cursor, and the cursor's own cell, fit in `cols - 1` terminal columns (a
 * CJK character takes two): counted in columns, not characters.
 */
export function scrollLeft(b: EditBuffer, leftCol: number, cols: number): number {
  const line = chars(b.lines[b.row]!);
  let left = Math.min(leftCol, b.col);
  // the columns from `left` to the cursor and its own cell, less one character each step
  let width = line.slice(left, b.col).reduce((n, ch) => n + charCells(ch), 0) + charCells(line[b.col] ?? " ");
  while (left < b.col && width > cols - 1) width -= charCells(line[left++]!);
  return left;
}

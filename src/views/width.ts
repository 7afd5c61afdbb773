/**
 * Terminal columns of text, the way tmux and wcwidth count them: East Asian wide and
 * fullwidth characters and emoji take two columns, combining marks, variation selectors and
 * zero-width joiners none. Views cut and pad untrusted text (titles, notes, file names) with
 * these, so a line of Japanese or an emoji never runs past its pane and wraps into the next row.
 */

const WIDE: [number, number][] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

const ZERO = /[\p{Mn}\p{Me}\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;
// fast path: printable ASCII, Latin-1 and the box-drawing/arrows/symbols the views draw (all one column)
const NARROW = /^[\x20-\x7e\u00a0-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u2319\u2500-\u25fc\u2600-\u2613]*$/;

function wide(cp: number): boolean {
  if (cp < 0x1100) return false;
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = WIDE[mid]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Columns one character (a code point) takes. */
export function charCells(ch: string): number {
  if (ZERO.test(ch)) return 0;
  return wide(ch.codePointAt(0)!) ? 2 : 1;
}

/** Columns a string takes on a terminal. */
export function cells(text: string): number {
  if (NARROW.test(text)) return text.length;
  let n = 0;
  for (const ch of text) n += charCells(ch);
  return n;
}

/** The longest start of `text` that fits in `width` columns (never half a wide character). */
export function cutCells(text: string, width: number): string {
  if (width <= 0) return "";
  if (NARROW.test(text)) return text.slice(0, width);
  let n = 0;
  let out = "";
  for (const ch of text) {
    const w = charCells(ch);
    if (n + w > width) break;
    n += w;
    out += ch;
  }
  return out;
}

/** `text` when it fits in `width` columns, else its start and "…" in that many. */
export const ellipsize = (text: string, width: number) => (cells(text) <= width ? text : cutCells(text, width - 1) + "…");

/** `text` padded with spaces to `width` columns (as String.padEnd, counting columns). */
export const padCells = (text: string, width: number) => text + " ".repeat(Math.max(0, width - cells(text)));

/** The longest end of `text` that fits in `width` columns. */
export function tailCells(text: string, width: number): string {
  if (width <= 0) return "";
  const chars = [...text];
  let n = 0;
  let i = chars.length;
  while (i > 0 && n + charCells(chars[i - 1]!) <= width) n += charCells(chars[--i]!);
  return chars.slice(i).join("");
}

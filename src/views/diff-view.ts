import { fit, seg, wrapText, type Line, type Style } from "./line.ts";

/**
 * The completion panel's diff view as data: a unified diff split into rows that know their
 * line in the file as it is now, with line comments drawn under the line they end on (a
 * reviewer's in yellow, the user's own in cyan) and a cursor row for commenting.
 */
export type DiffRow = { kind: "meta" | "hunk" | "add" | "del" | "ctx"; text: string; newLine: number | null };

export type InlineComment = {
  /** `logic-1`; none for the user's own */
  id?: string;
  by: string;
  severity?: string;
  body: string;
  start_line: number;
  end_line: number;
  /** the user's own comment (editable) */
  mine?: boolean;
  /** `✓ addressed in fix round 1`, `round 2` … */
  note?: string;
};

/** The rows of a unified diff (`fileDiff`'s output) with their new-file line numbers. */
export function diffRows(diff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let next = 0;
  for (const text of diff.replace(/\n$/, "").split("\n")) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      next = Number(hunk[1]);
      rows.push({ kind: "hunk", text, newLine: null });
    } else if (text.startsWith("diff ")) {
      // the next file's headers: `---`/`+++` are headers only before a hunk (inside one,
      // `+++i;` is the added line `++i;` and `---x` the deleted `--x`)
      next = 0;
      rows.push({ kind: "meta", text, newLine: null });
    } else if (!next) rows.push({ kind: "meta", text, newLine: null });
    else if (text.startsWith("+")) rows.push({ kind: "add", text, newLine: next++ });
    else if (text.startsWith("-")) rows.push({ kind: "del", text, newLine: null });
    else if (text.startsWith("\\")) rows.push({ kind: "meta", text, newLine: null });
    else rows.push({ kind: "ctx", text, newLine: next++ });
  }
  return rows;
}

/** The row a comment is drawn after: the row of its last line, else the last row before it (a line outside the diff's hunks). */
function anchorRow(rows: DiffRow[], line: number): number {
  let best = -1;
  rows.forEach((r, i) => {
    if (r.newLine !== null && r.newLine <= line) best = i;
  });
  return best >= 0 ? best : rows.length - 1;
}

const STYLE: Record<DiffRow["kind"], Style[]> = { meta: ["bold"], hunk: ["cyan"], add: ["green"], del: ["red"], ctx: [] };

function commentLines(c: InlineComment, width: number): Line[] {
  const color: Style = c.mine ? "cyan" : "yellow";
  const range = c.start_line === c.end_line ? `line ${c.start_line}` : `lines ${c.start_line}–${c.end_line}`;
  const head = [c.id, c.by, c.severity, range, c.note].filter(Boolean).join(" · ");
  const out: Line[] = [[seg("      ┃ ", color), seg(head, color, "bold")]];
  for (const l of wrapText(c.body, Math.max(10, width - 10))) out.push([seg("      ┃ ", color), seg(l)]);
  return out.map((l) => fit(l, width));
}

export type DiffView = {
  lines: Line[];
  /** for each line drawn, the diff row it belongs to (comment lines belong to the row above them) */
  rowOf: number[];
};

/** The diff with comments under their lines; `cursor` is a row index (drawn inverse). */
export function diffView(rows: DiffRow[], comments: InlineComment[], cursor: number, width: number): DiffView {
  const after = new Map<number, InlineComment[]>();
  for (const c of comments) {
    const at = anchorRow(rows, c.end_line);
    after.set(at, [...(after.get(at) ?? []), c]);
  }
  const lines: Line[] = [];
  const rowOf: number[] = [];
  const numW = Math.max(3, String(Math.max(0, ...rows.map((r) => r.newLine ?? 0))).length);
  rows.forEach((r, i) => {
    const commented = comments.some((c) => r.newLine !== null && r.newLine >= c.start_line && r.newLine <= c.end_line);
    const gutter = r.newLine === null ? " ".repeat(numW) : String(r.newLine).padStart(numW);
    const here = i === cursor;
    lines.push(
      fit([seg(commented ? "●" : " ", "yellow"), seg(`${gutter} `, "dim"), seg(r.text, ...STYLE[r.kind], ...((here ? ["inverse"] : []) as Style[]))], width),
    );
    rowOf.push(i);
    for (const c of after.get(i) ?? []) for (const l of commentLines(c, width)) (lines.push(l), rowOf.push(i));
  });
  return { lines, rowOf };
}

/** The next row the cursor may stop on (one with a line in the file as it is now), or `from` when there is none. */
export function nextCommentable(rows: DiffRow[], from: number, step: 1 | -1): number {
  for (let i = from + step; i >= 0 && i < rows.length; i += step) if (rows[i]!.newLine !== null) return i;
  return from;
}

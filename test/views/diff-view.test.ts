import { describe, expect, test } from "bun:test";
import { toPlain } from "../../src/views/line.ts";
import { diffRows, diffView, nextCommentable, type InlineComment } from "../../src/views/diff-view.ts";

/** #14.1: the completion panel's diff view draws line comments under the lines they are about. */
const DIFF = [
  "--- a/src/a.js",
  "+++ b/src/a.js",
  "@@ -1,3 +1,4 @@",
  " one",
  "-two",
  "+TWO",
  "+two and a half",
  " three",
  "@@ -10,1 +11,2 @@",
  " ten",
  "+eleven",
].join("\n");

const comment = (over: Partial<InlineComment>): InlineComment => ({ by: "reviewer_logic", body: "b", start_line: 1, end_line: 1, ...over });

describe("diff rows", () => {
  test("each row knows its line in the file as it is now; removed lines and headers have none", () => {
    expect(diffRows(DIFF).map((r) => [r.kind, r.newLine])).toEqual([
      ["meta", null],
      ["meta", null],
      ["hunk", null],
      ["ctx", 1],
      ["del", null],
      ["add", 2],
      ["add", 3],
      ["ctx", 4],
      ["hunk", null],
      ["ctx", 11],
      ["add", 12],
    ]);
  });

  test("inside a hunk, an added `++i;` and a deleted `--x` are lines of code, not file headers; a next file's headers are", () => {
    const diff = [
      "--- a/src/c.js",
      "+++ b/src/c.js",
      "@@ -1,3 +1,4 @@",
      " let i = 0;",
      "+++i;",
      "----x;",
      " console.log(i);",
      " end();",
      "diff --git a/b.js b/b.js",
      "--- a/b.js",
      "+++ b/b.js",
      "@@ -1 +1 @@",
      "+b",
    ].join("\n");
    expect(diffRows(diff).map((r) => [r.kind, r.newLine])).toEqual([
      ["meta", null],
      ["meta", null],
      ["hunk", null],
      ["ctx", 1],
      ["add", 2],
      ["del", null],
      ["ctx", 3],
      ["ctx", 4],
      ["meta", null],
      ["meta", null],
      ["meta", null],
      ["hunk", null],
      ["add", 1],
    ]);
  });

  test("the cursor stops only on lines of the file as it is now", () => {
    const rows = diffRows(DIFF);
    expect(nextCommentable(rows, -1, 1)).toBe(3);
    expect(nextCommentable(rows, 3, 1)).toBe(5);
    expect(nextCommentable(rows, 7, 1)).toBe(9);
    expect(nextCommentable(rows, 10, 1)).toBe(10);
    expect(nextCommentable(rows, 5, -1)).toBe(3);
  });
});

describe("comments in the diff", () => {
  test("a comment is drawn under the last line it is about, marked in the gutter; a range marks each line", () => {
    const rows = diffRows(DIFF);
    const v = diffView(
      rows,
      [
        comment({ id: "logic-1", severity: "medium", start_line: 2, end_line: 3, body: "Why two lines?", note: "round 1" }),
        comment({ by: "you", mine: true, start_line: 12, end_line: 12, body: "Mine." }),
      ],
      3,
      70,
    );
    const text = v.lines.map(toPlain);
    const at = (s: string) => text.findIndex((l) => l.includes(s));
    expect(text[at("+two and a half") + 1]).toContain("┃ logic-1 · reviewer_logic · medium · lines 2–3 · round 1");
    expect(text[at("+two and a half") + 2]).toContain("┃ Why two lines?");
    expect(text[at("+TWO")]).toMatch(/^● +2 \+TWO/);
    expect(text[at("+two and a half")]).toMatch(/^● +3 /);
    expect(text[at(" three")]).toMatch(/^ +4 /);
    expect(text.at(-2)).toContain("┃ you · line 12");
    expect(text.at(-1)).toContain("┃ Mine.");
    // comment lines belong to the row they hang under (the view scrolls by rows)
    expect(v.rowOf[at("Why two lines?")]).toBe(6);
    expect(text.every((l) => l.length <= 70)).toBe(true);
  });

  test("a comment on a line outside the diff's hunks hangs under the nearest line before it", () => {
    const rows = diffRows(DIFF);
    const text = diffView(rows, [comment({ start_line: 8, end_line: 8, body: "Outside." })], 3, 80).lines.map(toPlain);
    expect(text.findIndex((l) => l.includes("Outside."))).toBe(text.findIndex((l) => l.includes(" three")) + 2);
  });
});

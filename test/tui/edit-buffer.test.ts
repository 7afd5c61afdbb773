import { describe, expect, test } from "bun:test";
import * as B from "../../src/tui/edit-buffer.ts";

/** #11.11: the commit-message editor's text and cursor, key by key. */
const keys = (text: string, ...steps: ((b: B.EditBuffer) => B.EditBuffer)[]) => steps.reduce((b, f) => f(b), B.fromText(text));
const type = (s: string) => (b: B.EditBuffer) => B.insert(b, s);

describe("edit buffer", () => {
  test("starts at the end of the text; typing inserts at the cursor", () => {
    const b = B.fromText("feat: x\n\nbody");
    expect([b.row, b.col]).toEqual([2, 4]);
    expect(B.toText(keys("feat: x", B.home, type("[1] ")))).toBe("[1] feat: x");
    expect(B.toText(keys("ac", B.left, type("b")))).toBe("abc");
  });

  test("left/right cross line ends; up/down keep the wanted column past short lines", () => {
    const b = keys("long line here\nab\nanother long line", B.up, B.up, B.end);
    expect([b.row, b.col]).toEqual([0, 14]);
    const down1 = B.down(b);
    expect([down1.row, down1.col]).toEqual([1, 2]);
    const down2 = B.down(down1);
    expect([down2.row, down2.col]).toEqual([2, 14]);
    expect([B.right(keys("ab\ncd", B.up, B.end)).row, B.right(keys("ab\ncd", B.up, B.end)).col]).toEqual([1, 0]);
    expect([B.left(keys("ab\ncd", B.home)).row, B.left(keys("ab\ncd", B.home)).col]).toEqual([0, 2]);
    expect(B.up(keys("ab\ncd", B.up))).toMatchObject({ row: 0, col: 0 });
    expect(B.down(keys("ab\ncd"))).toMatchObject({ row: 1, col: 2 });
  });

  test("Enter splits a line; Backspace and Delete join lines at their edges", () => {
    expect(B.toText(keys("subjectbody", B.home, ...Array(7).fill(B.right), B.newline, B.newline))).toBe("subject\n\nbody");
    expect(B.toText(keys("ab\ncd", B.home, B.backspace))).toBe("abcd");
    expect(B.toText(keys("ab\ncd", B.up, B.end, B.del))).toBe("abcd");
    expect(B.toText(keys("abc", B.backspace))).toBe("ab");
    expect(B.toText(keys("abc", B.home, B.del))).toBe("bc");
    expect(B.toText(keys("", B.backspace, B.del))).toBe("");
    expect(B.toText(keys("abc def", B.home, B.right, B.killLine))).toBe("a");
  });

  test("a pasted block with newlines; an emoji and a CJK character move as one character", () => {
    expect(B.toText(keys("x", B.home, type("a\nb\r\nc")))).toBe("a\nb\ncx");
    expect(B.toText(keys("a🚀日", B.left, B.backspace))).toBe("a日");
    expect(B.toText(keys("日本", B.left, type("x")))).toBe("日x本");
  });
});

describe("the editor's view scrolls by terminal columns", () => {
  test("a long line of CJK (two columns each) keeps the cursor on screen; ASCII scrolls as before", () => {
    const cjk = B.fromText("漢".repeat(50)); // cursor after the 50th character: 100 columns in
    const left = B.scrollLeft(cjk, 0, 78);
    // from `left` to the cursor, with the cursor's own cell, fits in 77 columns
    expect((50 - left) * 2 + 1).toBeLessThanOrEqual(77);
    expect((50 - (left - 1)) * 2 + 1).toBeGreaterThan(77);
    const ascii = B.fromText("x".repeat(100));
    expect(B.scrollLeft(ascii, 0, 78)).toBe(100 - 78 + 2);
    // moving back left of the view scrolls back to the cursor
    expect(B.scrollLeft(B.home(ascii), 40, 78)).toBe(0);
  });
});

import { describe, expect, test } from "bun:test";
import { inertLine, inertText, terminalJson } from "../../src/schema/inert-text.ts";
import { HOSTILE, isInert } from "../helpers/hostile.ts";

describe("inert text (#18.14)", () => {
  test("every escape sequence goes whole, not only its ESC", () => {
    expect(inertLine(HOSTILE.clipboard)).toBe("ab");
    expect(inertLine(HOSTILE.clipboardSt)).toBe("ab");
    expect(inertLine(HOSTILE.clear)).toBe("ab");
    expect(inertLine(HOSTILE.title)).toBe("ab");
    expect(inertLine(HOSTILE.c1)).toBe("abc");
    expect(inertLine(HOSTILE.reset)).toBe("ab");
    expect(inertLine(HOSTILE.dcs)).toBe("ab");
    expect(inertLine(HOSTILE.bell)).toBe("ab");
    expect(inertLine(HOSTILE.link)).toBe("aclickb");
    expect(inertLine("\x1b[38;5;196mred\x1b[0m")).toBe("red");
  });

  test("CR, backspace and bidi controls cannot hide or reorder text", () => {
    expect(inertLine(HOSTILE.cr)).toBe("ok FAILED");
    expect(inertText(HOSTILE.cr)).toBe("ok\nFAILED");
    expect(inertText("a\r\nb")).toBe("a\nb");
    expect(inertLine(HOSTILE.backspace)).toBe("safeEVIL");
    expect(inertLine(HOSTILE.bidi)).toBe("aevilxb");
  });

  test("lines: newlines and tabs become spaces; text: they stay", () => {
    expect(inertLine("a\nb\tc")).toBe("a b c");
    expect(inertText("subject\n\n\tbody\x1b[2J")).toBe("subject\n\n\tbody");
  });

  test("a prompt reference delivered to an agent pane: one line, no controls, unicode kept", () => {
    expect(inertLine("Read\x1b[31m and\r follow\tthe 日本 👩‍💻\x07\n").trim()).toBe("Read and  follow the 日本 👩‍💻");
  });

  test("ordinary text is returned as it is (unicode, emoji, RTL letters)", () => {
    for (const s of ["", "Add rate limiting", "日本語 👩‍💻 ✓ ▶ ·", "שלום עולם", "a{b}c [x] 100%"]) {
      expect(inertLine(s)).toBe(s);
      expect(inertText(s)).toBe(s);
    }
  });

  test("every hostile string comes out inert in both forms", () => {
    for (const s of Object.values(HOSTILE)) {
      expect(isInert(inertLine(s))).toBe(true);
      expect(isInert(inertText(s))).toBe(true);
      expect(inertLine(s)).not.toContain("\n");
    }
  });

  test("terminal JSON: the same data, with C1, bidi and separators escaped", () => {
    const value = { title: "a\u009b2J\u202eb\u2028c\x1b]0;t\x07", n: 1 };
    const out = terminalJson(value, 2);
    expect(JSON.parse(out)).toEqual(value);
    expect(isInert(out.replace(/\n/g, ""))).toBe(true);
    expect(out).toContain("\\u009b");
    expect(out).toContain("\\u001b");
  });
});

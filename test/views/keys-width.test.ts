import { describe, expect, test } from "bun:test";
import { fit, plainWidth, seg, toPlain, wrapText } from "../../src/views/line.ts";
import { cells, cutCells, padCells } from "../../src/views/width.ts";
import { keyBar, keyName } from "../../src/views/keys.ts";
import { monitorKeys } from "../../src/views/monitor.ts";
import { stateIn } from "../tui/fixtures.ts";
import { monitorRun } from "../helpers/monitor-input.ts";
import { panelKeys, panelLayout } from "../../src/views/panel-layout.ts";
import { fileLines } from "../../src/views/panel.ts";

describe("terminal columns", () => {
  test("wide characters take two columns, combining marks and joiners none", () => {
    expect(cells("abc")).toBe(3);
    expect(cells("─ ✓ ▶ · ● ○ ◷ … ›")).toBe(17);
    expect(cells("日本語")).toBe(6);
    expect(cells("한국어")).toBe(6);
    expect(cells("ＡＢ")).toBe(4);
    expect(cells("🚀")).toBe(2);
    expect(cells("e\u0301")).toBe(1);
    expect(cells("a\u200db")).toBe(2);
  });

  test("cutting never splits a wide character and never exceeds the width", () => {
    expect(cutCells("日本語", 5)).toBe("日本");
    expect(cutCells("ab日本", 3)).toBe("ab");
    expect(cutCells("abc", 0)).toBe("");
    expect(padCells("日本", 6)).toBe("日本  ");
    const line = fit([seg("› "), seg("プロンプトが受け付けられませんでした")], 13);
    expect(plainWidth(line)).toBeLessThanOrEqual(13);
    expect(toPlain(line)).toBe("› プロンプト…");
  });

  test("wrapping counts columns", () => {
    for (const l of wrapText("日本語のテキスト をたくさん 書きます 🚀🚀🚀 end", 8)) expect(cells(l)).toBeLessThanOrEqual(8);
  });
});

describe("key bars", () => {
  const plain = (w: number, lines = 1) => keyBar(monitorKeys(monitorRun({ dir: "/p/s", state: stateIn("architecting"), now: 0 })), w, lines).map(toPlain);

  test("all keys when they fit; tighter, then fewer keys when they do not; help and detach stay", () => {
    expect(plain(100)).toEqual(["? help · Enter focus · l output · c cancel · Ctrl-b d detach"]);
    expect(plain(57)).toEqual(["? help  Enter focus  l output  c cancel  Ctrl-b d detach"]);
    expect(plain(44)).toEqual(["? help · l output · Ctrl-b d detach"]);
    expect(plain(30)).toEqual(["? help · Ctrl-b d detach"]);
    expect(plain(12)).toEqual(["? help"]);
    for (const w of [20, 30, 44, 60, 80])
      for (const l of keyBar(monitorKeys(monitorRun({ dir: "/p/s", state: stateIn("architecting"), now: 0 })), w)) expect(plainWidth(l)).toBeLessThanOrEqual(w);
  });

  test("several lines when allowed; the approval key while the run waits; the session's prefix", () => {
    expect(plain(30, 3)).toEqual(["? help · Enter focus", "l output · c cancel", "Ctrl-b d detach"]);
    const waiting = keyBar(monitorKeys(monitorRun({ dir: "/p/s", state: stateIn("completing", { awaiting_decision: true }), now: 0 }), "C-a"), 44).map(toPlain);
    expect(waiting).toEqual(["? help · a approval · Ctrl-a d detach"]);
    expect(keyName("C-a")).toBe("Ctrl-a");
    expect(keyName("M-b")).toBe("Alt-b");
  });
});

describe("completion panel layout (#11.10)", () => {
  const sizes: [number, number][] = [
    [80, 24],
    [100, 30],
    [120, 30],
    [200, 50],
    [60, 16],
  ];
  for (const [w, h] of sizes) {
    test(`${w}×${h}: every part inside the screen, none overlapping, the key bar whole`, () => {
      const keys = keyBar(panelKeys(), w, 2);
      expect(keys.map(toPlain).join(" ")).toContain("a approve");
      expect(keys.map(toPlain).join(" ")).toContain("r request changes");
      for (const l of keys) expect(plainWidth(l)).toBeLessThanOrEqual(w);
      const at = panelLayout(w, h, 30, keys.length);
      const parts = [at.header, at.files, at.message, at.summary, at.keys].filter((r) => r.height > 0);
      for (const r of parts) {
        expect(r.left + r.width).toBeLessThanOrEqual(w);
        expect(r.top + r.height).toBeLessThanOrEqual(h);
      }
      for (const a of parts)
        for (const b of parts) {
          if (a === b) continue;
          const apart = a.left + a.width <= b.left || b.left + b.width <= a.left || a.top + a.height <= b.top || b.top + b.height <= a.top;
          expect(apart).toBe(true);
        }
      expect(at.files.height).toBeGreaterThanOrEqual(4);
      expect(at.message.height).toBeGreaterThanOrEqual(4);
      // narrow screens stack the parts at full width, so file names stay whole
      if (w < 110) expect(at.files.width).toBe(w);
    });
  }

  test("a long path keeps its end", () => {
    const [line] = fileLines([{ path: "src/limits/backends/very/deep/folder/store_29.ts", status: "added" }], new Set(), 0, 30);
    expect(toPlain(line!)).toBe("› [x] A …ep/folder/store_29.ts");
  });
});

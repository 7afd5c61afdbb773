/** The page's log: what was appended since the last read, whole lines only; a new log starts over; a long one starts at its end. */
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { logFrom } from "../../src/web/source.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const rec = (msg: string) => JSON.stringify({ ts: "2026-11-28T15:00:00.000Z", level: "info", event: "note", msg }) + "\n";
const text = (lines: { t: string }[][]) => lines.map((l) => l.map((s) => s.t).join(""));

test("appended lines only, a line being written waits for its newline, a new log is a reset", () => {
  const dir = makeTmpDir("amx-weblog-");
  dirs.push(dir);
  mkdirSync(dir, { recursive: true });
  const log = join(dir, "orchestrator.log");
  expect(logFrom(dir, null)).toEqual({ lines: [], next: 0, reset: false });
  writeFileSync(log, rec("first") + rec("second"));
  const a = logFrom(dir, null);
  expect(a.reset).toBe(true);
  expect(text(a.lines).map((l) => l.includes("first") || l.includes("second"))).toEqual([true, true]);
  appendFileSync(log, rec("third") + rec("fourth").slice(0, 20));
  const b = logFrom(dir, a.next);
  expect(b.reset).toBe(false);
  expect(text(b.lines)).toHaveLength(1);
  expect(text(b.lines)[0]).toContain("third");
  appendFileSync(log, rec("fourth").slice(20));
  const c = logFrom(dir, b.next);
  expect(text(c.lines)).toHaveLength(1);
  expect(text(c.lines)[0]).toContain("fourth");
  expect(logFrom(dir, c.next).lines).toEqual([]);
  writeFileSync(log, rec("resumed")); // a new, shorter log
  const d = logFrom(dir, c.next);
  expect(d.reset).toBe(true);
  expect(text(d.lines)[0]).toContain("resumed");
});

test("a long log: a page that opens gets its last 256 KiB, from a line's start", () => {
  const dir = makeTmpDir("amx-weblog-");
  dirs.push(dir);
  const lines = Array.from({ length: 6000 }, (_, i) => rec(`line ${i} ${"x".repeat(40)}`));
  writeFileSync(join(dir, "orchestrator.log"), lines.join(""));
  const r = logFrom(dir, null);
  const shown = text(r.lines);
  expect(shown.length).toBeGreaterThan(1000);
  expect(shown.length).toBeLessThan(6000);
  expect(shown.at(-1)).toContain("line 5999 ");
  const first = Number(/line (\d+) /.exec(shown[0]!)![1]);
  expect(shown[0]).toContain(`line ${first} ${"x".repeat(40)}`); // whole, not cut
  expect(shown).toHaveLength(6000 - first);
});

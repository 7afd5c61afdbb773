import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CappedLog } from "../../../src/effects/process/capped-log.ts";
import { makeTmpDir, removeDir } from "../../helpers/tmp.ts";

const dir = makeTmpDir("amx-capped-");
afterAll(() => removeDir(dir));
let n = 0;
const logOf = (chunks: string[], caps = { headBytes: 10, tailBytes: 8 }) => {
  const log = new CappedLog(join(dir, `${n++}.log`), caps);
  for (const c of chunks) log.write(Buffer.from(c));
  return { closed: log.close(3), text: readFileSync(log.path, "utf8") };
};

test("output within the head is written whole, nothing dropped", () => {
  expect(logOf(["abc\n", "de\n"])).toEqual({ closed: { bytes: 7, dropped: 0, tail: ["abc", "de"], problem: null }, text: "abc\nde\n" });
});

test("output just over the head: the tail completes it without a marker or a repeated byte", () => {
  const { closed, text } = logOf(["0123456789", "abcdef"]);
  expect(text).toBe("0123456789abcdef");
  expect(closed.dropped).toBe(0);
});

test("output over head + tail: the middle goes, a marker says how much, the tail is exact", () => {
  const { closed, text } = logOf(["0123456789", "MIDDLE-MIDDLE", "x\nlast-1\n", "end\n"]);
  expect(closed).toEqual({ bytes: 36, dropped: 18, tail: ["end"], problem: null });
  expect(text).toBe("0123456789\n[agentmux: 18 bytes of output dropped here; the first 10 and the last 8 are kept]\nt-1\nend\n");
});

test("one chunk larger than everything: head and tail from the same chunk", () => {
  const { closed, text } = logOf(["H".repeat(10) + "M".repeat(100) + "\nT1\nT2\n"]);
  expect(closed.dropped).toBe(99);
  expect(text.startsWith("HHHHHHHHHH\n[agentmux: 99 bytes")).toBe(true);
  expect(text.endsWith("M\nT1\nT2\n")).toBe(true);
  expect(closed.tail).toEqual(["T1", "T2"]);
});

test("a write after close is ignored and close is idempotent", () => {
  const log = new CappedLog(join(dir, "idem.log"));
  log.write(Buffer.from("a\n"));
  const first = log.close();
  log.write(Buffer.from("b\n"));
  expect(log.close()).toBe(first);
  expect(readFileSync(log.path, "utf8")).toBe("a\n");
});

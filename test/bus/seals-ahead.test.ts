import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SEALS_AHEAD_MIN_BYTES, SealsAhead } from "../../src/bus/seals-ahead.ts";
import { toolLineToEvent } from "../../src/bus/tool-events.ts";
import { readToolLines } from "../../src/bus/tool-lines.ts";
import { checkSeal, sealLine } from "../../src/bus/tool-seal.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { prng } from "../orchestrator/random-run.ts";

// The seal thread (bus/seals-ahead.ts) checks lines as checkSeal does, on bytes: every verdict
// it gives must be checkSeal's on the text readToolLines gives the reader, for valid, tampered
// and malformed lines alike.

const key = randomBytes(32);
const otherKey = randomBytes(32);
const dir = makeTmpDir("amx-seals-ahead-");
afterAll(() => removeDir(dir));

const payload = (i: number) => ({ topic: `topic-${i}`, context: "c", questions: ["q"], scope_hints: null, research_type: "code" });
const body = (i: number) => JSON.stringify({ tool: "research_dispatch_code", timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}.000Z`, payload: payload(i), agent: "architect", role: "architect", seq: i + 1 });

/** Lines as they come, with every way a line can be wrong around its seal. */
function lines(n: number, seed: number): string[] {
  const rng = prng(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const good = sealLine(key, body(i));
    const at = good.length - 68; // the seal's first hex digit
    const variants = [
      good,
      good,
      `  ${good}\t\r`, // white space around: trimmed by the reader
      good.replace("topic-", "topix-"), // the body changed after sealing
      good.slice(0, at) + (good[at] === "0" ? "1" : "0") + good.slice(at + 1), // one digit of the seal
      good.slice(0, at) + good.slice(at, at + 64).toUpperCase() + good.slice(at + 64), // upper-case hex
      sealLine(otherKey, body(i)), // another run's key
      body(i), // no seal
      good.slice(0, -1), // cut off
      `${good.slice(0, -2)} "}`, // a space before the end
      good.replace(',"seal":"', ', "seal":"'),
      sealLine(key, "{}"), // the shortest object
      '{,"seal":"' + "a".repeat(64) + '"}',
      ',"seal":"' + "a".repeat(64) + '"}', // nothing before the seal
      "",
      "   ",
      "not json",
      "x".repeat(rng.int(0, 200)),
    ];
    out.push(rng.pick(variants));
  }
  return out;
}

/** The chunk in shared memory, as readToolLines reads a large one. */
function shared(text: string): Buffer {
  const bytes = Buffer.from(text, "latin1");
  const buf = Buffer.from(new SharedArrayBuffer(bytes.length));
  bytes.copy(buf);
  return buf;
}

describe("the seal thread's verdicts are checkSeal's", () => {
  for (const seed of [1, 2, 3]) {
    test(`random lines, seed ${seed}`, async () => {
      const text = lines(3000, seed).join("\n") + "\npartial line without its newline";
      const texts = text.split("\n").slice(0, -1).map((l) => l.trim()).filter(Boolean);
      const ahead = SealsAhead.start(key, shared(text))!;
      expect(ahead).not.toBeNull();
      await waitFor("every verdict", () => texts.every((_, i) => ahead.verdict(i) !== null), { timeoutMs: 30_000 });
      const got = texts.map((_, i) => ahead.verdict(i));
      expect(got).toEqual(texts.map((t) => checkSeal(key, t)));
      expect(got.filter((v) => v).length).toBeGreaterThan(500);
      expect(got.filter((v) => !v).length).toBeGreaterThan(1000);
      // the partial last line has no verdict: it is not a line yet
      expect(ahead.verdict(texts.length)).toBeNull();
    });
  }

  test("a line the thread has not reached is checked by its reader: the same answer", () => {
    const good = sealLine(key, body(1));
    const ahead = SealsAhead.start(key, shared(""))!;
    expect(ahead.verdict(0)).toBeNull();
    expect(ahead.check(0).valid(good)).toBe(true);
    expect(ahead.check(0).valid(good.replace("topic-", "topix-"))).toBe(false);
  });

  test("a chunk outside shared memory starts no thread", () => {
    expect(SealsAhead.start(key, Buffer.from("x\n"))).toBeNull();
  });
});

describe("readToolLines with the key: a large chunk is checked ahead", () => {
  test("every line carries its check, toolLineToEvent applies the valid ones and refuses the others with the same reason", async () => {
    const sessionDir = join(dir, "session");
    const path = join(dir, "tool_events.jsonl");
    const all = lines(Math.ceil((SEALS_AHEAD_MIN_BYTES * 1.5) / 200), 7);
    writeFileSync(path, all.join("\n") + "\n");
    const read = readToolLines(path, 0, key);
    expect(read.length).toBe(all.filter((l) => l.trim()).length);
    expect(read.every((l) => l.seal?.key === key)).toBe(true);
    const plain = readToolLines(path, 0);
    expect(plain.every((l) => l.seal === undefined)).toBe(true);
    await waitFor("the thread's last verdict", () => read.at(-1)!.seal!.valid(read.at(-1)!.text) === checkSeal(key, read.at(-1)!.text) && read.every((l, i) => (l.seal as unknown as { ahead: SealsAhead }).ahead.verdict(i) !== null), { timeoutMs: 30_000 });
    let applied = 0;
    let refused = 0;
    for (let i = 0; i < read.length; i++) {
      const l = read[i]!;
      expect(l.seal!.valid(l.text)).toBe(checkSeal(key, l.text));
      if (!l.value) continue;
      const ctx = { sessionDir, key, phase: "architecting" as const, appliedSeq: 0 };
      const ahead = toolLineToEvent(l.value, l.text, ctx, l.seal);
      expect(ahead).toEqual(toolLineToEvent(plain[i]!.value!, plain[i]!.text, ctx));
      if ("event" in ahead && ahead.event.type === "research_dispatched") applied++;
      if ("event" in ahead && ahead.event.type === "tool_rejected" && ahead.event.reason.includes("no valid agentmux seal")) refused++;
      // a check made with another key is not taken for this one
      expect(toolLineToEvent(l.value, l.text, { ...ctx, key: otherKey }, l.seal)).toEqual(toolLineToEvent(l.value, l.text, { ...ctx, key: otherKey }));
    }
    expect(applied).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
  });
});

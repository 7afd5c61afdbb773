import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toolLineToEvent } from "../../src/bus/tool-events.ts";
import { readToolLines, readToolLinesForResume, type ToolLine } from "../../src/bus/tool-lines.ts";
import { loadSealKey } from "../../src/bus/tool-seal.ts";
import { ToolTail } from "../../src/bus/tool-tail.ts";
import { withFileLock } from "../../src/effects/fs/lock.ts";
import { ToolEventLog } from "../../src/mcp/events.ts";
import { F } from "../../src/protocol/paths.ts";
import { connect, makeFixture, startEndpoint, textOf, type Endpoint, type Fixture } from "../mcp/harness.ts";
import { makeTmpDir, removeDir, REPO_ROOT } from "../helpers/tmp.ts";
import { makeZombie } from "../helpers/processes.ts";

let fx: Fixture;
let log: string;
beforeEach(async () => {
  fx = await makeFixture();
  log = join(fx.sessionDir, F.toolEvents);
});
afterEach(() => fx.cleanup());

const dispatch = (topic: string) => ({ topic, context: "c", questions: ["q"], scope_hints: null, research_type: "code" as const });
const caller = { agent: "architect", role: "architect" as const };

describe("appends (#18.3)", () => {
  test("after a torn last line the next call starts on a fresh line: the fragment is reported alone, the call is applied", async () => {
    const events = new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir));
    events.append("research_dispatch_code", dispatch("first"), caller);
    appendFileSync(log, '{"tool":"research_dispatch_code","timest'); // a crash or a full disk mid-append
    events.append("research_dispatch_code", dispatch("second"), caller);
    const lines = readToolLines(log, 0);
    expect(lines.map((l) => l.value?.payload.topic ?? `error: ${l.error}`)).toEqual([
      "first",
      expect.stringContaining("error: tool_events.jsonl line 2: not JSON"),
      "second",
    ]);
    const key = loadSealKey(fx.sessionDir);
    const applied = toolLineToEvent(lines[2]!.value!, lines[2]!.text, { sessionDir: fx.sessionDir, key, phase: "architecting", appliedSeq: 1 });
    expect(applied).toMatchObject({ event: { type: "research_dispatched", topic: "second" }, seq: 2 });
  });

  test("lines in ASCII and in other UTF-8 read alike: byte offsets as ends, decoded text, valid seals, the line number of a bad one", async () => {
    const key = loadSealKey(fx.sessionDir);
    const events = new ToolEventLog(fx.sessionDir, key);
    for (const context of ["plain", "naïve café — 日本 🙂", "plain again"])
      events.append("research_dispatch_code", { ...dispatch(`t-${context.length}`), context }, caller);
    appendFileSync(log, "not json\n");
    const bytes = readFileSync(log);
    const ends = [...bytes.entries()].filter(([, b]) => b === 0x0a).map(([i]) => i + 1);
    for (const from of [0, ends[0]!, ends[1]!]) {
      const lines = readToolLines(log, from);
      expect(lines.map((l) => l.end)).toEqual(ends.filter((e) => e > from));
      expect(lines.map((l) => l.text)).toEqual(bytes.toString("utf8", from).split("\n").filter(Boolean));
      expect(lines.at(-1)!.error).toStartWith("tool_events.jsonl line 4: not JSON");
      for (const l of lines.slice(0, -1)) {
        const r = toolLineToEvent(l.value!, l.text, { sessionDir: fx.sessionDir, key, phase: "architecting", appliedSeq: 0 });
        expect(r).toMatchObject({ event: { type: "research_dispatched", context: JSON.parse(l.text).payload.context } });
      }
    }
  });

  test("a failed append never answers 'accepted': the agent hears nothing was recorded", async () => {
    const ep: Endpoint = startEndpoint(fx);
    try {
      symlinkSync("/dev/full", log); // every write fails with ENOSPC
      const { client } = await connect(ep, "architect", { fx });
      const r = await client.callTool({ name: "research_dispatch_code", arguments: { topic: "t", context: "c", questions: ["q"] } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain("research_dispatch_code failed inside agentmux");
      expect(textOf(r)).toContain("Nothing was recorded; call it again.");
      await client.close();
    } finally {
      ep.stop();
    }
  });

  test("a write cut short (the file-size limit reached mid-line) leaves the log exactly as it was", () => {
    writeFileSync(log, "x".repeat(400) + "\n");
    const script = `import { appendRecord } from ${JSON.stringify(join(REPO_ROOT, "src/effects/fs/atomic.ts"))};
try { appendRecord(${JSON.stringify(log)}, "y".repeat(3000)); console.log("written"); } catch (e) { console.log("failed: " + e.code); }`;
    // ulimit -f counts 512-byte blocks in sh: 1 block lets 112 of the 3000 bytes through
    const r = Bun.spawnSync(["sh", "-c", `trap '' XFSZ; ulimit -f 1; exec "$0" -e "$1"`, process.execPath, script], { stdout: "pipe", stderr: "pipe" });
    expect(r.stdout.toString().trim()).toBe("failed: EFBIG");
    expect(readFileSync(log, "utf8")).toBe("x".repeat(400) + "\n");
  });

  test("the lock of a dead writer is broken at once; an old one before any writer gives up", () => {
    const lock = join(fx.sessionDir, F.toolEventsLock);
    const dead = Bun.spawnSync(["true"]).pid;
    writeFileSync(lock, String(dead));
    let t = Date.now();
    withFileLock(lock, () => {});
    expect(Date.now() - t).toBeLessThan(1000);
    // a live holder that stopped touching it 3 s ago (hung): writers wait up to 10 s, staleness is 2 s
    writeFileSync(lock, String(process.ppid));
    utimesSync(lock, new Date(Date.now() - 3000), new Date(Date.now() - 3000));
    t = Date.now();
    expect(withFileLock(lock, () => "got it")).toBe("got it");
    expect(Date.now() - t).toBeLessThan(2000);
    expect(existsSync(lock)).toBe(false);
  });

  test("the lock of a writer that died but was not reaped (a zombie) is broken at once too", async () => {
    const zombie = await makeZombie();
    try {
      const lock = join(fx.sessionDir, F.toolEventsLock);
      writeFileSync(lock, String(zombie.pid));
      const t = Date.now();
      withFileLock(lock, () => {});
      expect(Date.now() - t).toBeLessThan(1000);
    } finally {
      zombie.stop();
    }
  });
});

describe("tool_events.jsonl truncated, replaced or deleted under the run (#18.4)", () => {
  const setup = () => {
    const events = new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir));
    const got: string[] = [];
    const tail = new ToolTail(
      fx.sessionDir,
      0,
      (l: ToolLine) => got.push(`${l.value?.seq}:${l.value?.payload.topic}`),
      (cause) => got.push(`reset: ${cause}`),
      60_000,
    );
    return { events, got, tail };
  };

  test("truncated: said, then read again from the start; nothing after it is lost", () => {
    const { events, got, tail } = setup();
    events.append("research_dispatch_code", dispatch("a"), caller);
    events.append("research_dispatch_code", dispatch("b"), caller);
    tail.drain();
    truncateSync(log, 0);
    events.append("research_dispatch_code", dispatch("c"), caller);
    tail.drain();
    expect(got).toEqual(["1:a", "2:b", expect.stringMatching(/^reset: was truncated \(\d+ bytes, \d+ had been read\)$/), "3:c"]);
  });

  test("replaced by another file (rotated) and deleted: said, and the new file's lines arrive", () => {
    const { events, got, tail } = setup();
    events.append("research_dispatch_code", dispatch("a"), caller);
    tail.drain();
    renameSync(log, `${log}.1`);
    events.append("research_dispatch_code", dispatch("b"), caller);
    events.append("research_dispatch_code", dispatch("c"), caller);
    tail.drain();
    rmSync(log);
    tail.drain();
    events.append("research_dispatch_code", dispatch("d"), caller);
    tail.drain();
    expect(got).toEqual(["1:a", "reset: was replaced by another file", "2:b", "3:c", "reset: was deleted", "4:d"]);
  });

  test("a rescan skips what was applied: seq ≤ the applied seq is skipped, not re-applied", async () => {
    const events = new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir));
    events.append("research_dispatch_code", dispatch("a"), caller);
    events.append("research_dispatch_code", dispatch("b"), caller);
    const key = loadSealKey(fx.sessionDir);
    const [a, b] = readToolLines(log, 0);
    expect(toolLineToEvent(a!.value!, a!.text, { sessionDir: fx.sessionDir, key, phase: "architecting", appliedSeq: 1 })).toEqual({ skip: true, seq: 1 });
    expect(toolLineToEvent(b!.value!, b!.text, { sessionDir: fx.sessionDir, key, phase: "architecting", appliedSeq: 1 })).toMatchObject({ seq: 2 });
  });

  test("at resume: a log shorter than the cursor, or whose cursor no longer ends a line, is read from its start", () => {
    const events = new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir));
    events.append("research_dispatch_code", dispatch("a"), caller);
    const size = readFileSync(log).length;
    expect(readToolLinesForResume(log, size)).toEqual({ lines: [] });
    expect(readToolLinesForResume(log, size + 50).reset).toMatch(/^was truncated/);
    expect(readToolLinesForResume(log, size - 3).reset).toMatch(/^was replaced/);
    expect(readToolLinesForResume(log, size - 3).lines).toHaveLength(1);
    rmSync(log);
    expect(readToolLinesForResume(log, size)).toEqual({ lines: [], reset: "was deleted" });
  });

  test("a new writer after a restart continues the seq from the log (never reuses one)", () => {
    new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir)).append("research_dispatch_code", dispatch("a"), caller);
    const again = new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir));
    expect(again.append("research_dispatch_code", dispatch("b"), caller).seq).toBe(2);
    rmSync(log);
    // the log is gone: the applied seq from state.json is the floor
    expect(new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir), 7).append("research_dispatch_code", dispatch("c"), caller).seq).toBe(8);
  });

  test("lines nobody sealed appended after the last sealed one, however many, do not hide its seq", () => {
    const events = new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir));
    for (const t of ["a", "b", "c"]) events.append("research_dispatch_code", dispatch(t), caller);
    // an agent appends 200 KB of its own lines (unsealed), some longer than the reader's 64 KB pieces
    appendFileSync(
      log,
      Array.from({ length: 40 }, (_, i) => JSON.stringify({ tool: "submit_plan", payload: {}, seq: 1, pad: "x".repeat(i % 7 === 0 ? 70_000 : 2_000) })).join(
        "\n",
      ) + "\n",
    );
    const again = new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir));
    expect(again.append("research_dispatch_code", dispatch("d"), caller).seq).toBe(4);
    // a sealed line longer than those pieces is read whole
    again.append("research_dispatch_code", { ...dispatch("e"), context: "y".repeat(150_000) }, caller);
    expect(new ToolEventLog(fx.sessionDir, loadSealKey(fx.sessionDir)).append("research_dispatch_code", dispatch("f"), caller).seq).toBe(6);
  });
});

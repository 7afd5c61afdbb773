import { expect, test } from "bun:test";
import { logLine } from "../../src/effects/log.ts";
import { LogRecord } from "../../src/schema/log.ts";
import { parseLog, readLog } from "../../src/session/log.ts";
import { SESSION_FILES } from "../../src/protocol/files.ts";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { scratch } from "../helpers/tmp.ts";
import { logLines } from "../../src/views/log.ts";
import { toAnsi } from "../../src/views/line.ts";

const at = new Date("2026-01-02T03:04:05.678Z");

test("a log line is one JSON record with its keys in the documented order; unset fields are left out", () => {
  const line = logLine("launched coder", { event: "agent_launched", agent: "coder", pane: "%3", data: { provider: "sim" } }, at);
  expect(line.endsWith("\n")).toBe(true);
  expect(line.trim().split("\n")).toHaveLength(1);
  const record = JSON.parse(line);
  expect(Object.keys(record)).toEqual(["ts", "level", "event", "msg", "agent", "pane", "data"]);
  expect(LogRecord.parse(record)).toEqual({
    ts: "2026-01-02T03:04:05.678Z",
    level: "info",
    event: "agent_launched",
    msg: "launched coder",
    agent: "coder",
    pane: "%3",
    data: { provider: "sim" },
  });
  expect(JSON.parse(logLine("a\nmulti-line screen", {}, at))).toEqual({
    ts: "2026-01-02T03:04:05.678Z",
    level: "info",
    event: "note",
    msg: "a\nmulti-line screen",
  });
});

test("reading a log keeps every line: records, and raw lines (an older text log, a torn tail) as notes", () => {
  const text = logLine("started", { event: "orchestrator_started", phase: "planning" }, at) + "2025-01-01T00:00:00Z old text line\n" + '{"ts":"x","lev';
  const records = parseLog(text);
  expect(records.map((r) => r.event)).toEqual(["orchestrator_started", "note", "note"]);
  expect(records[1]).toEqual({ ts: "", level: "info", event: "note", msg: "2025-01-01T00:00:00Z old text line" });
  expect(records[2]!.msg).toBe('{"ts":"x","lev');
});

test("the readable rendering: time, level, event, who, message; continuation lines indented", () => {
  const records = parseLog(
    logLine(
      "delivery to coder failed: not ready\nscreen line",
      { level: "warn", event: "delivery_failed", agent: "coder", data: { reason: "not ready" } },
      at,
    ) + logLine("commit failed: ENOSPC", { level: "error", event: "commit_failed", error: "Error: ENOSPC\n    at write" }, at),
  );
  const text = logLines(records).map((l) => toAnsi(l, { color: false }));
  expect(text[0]).toBe("03:04:05.678  warn   delivery_failed      [coder] delivery to coder failed: not ready");
  expect(text[1]!.trim()).toBe("screen line");
  expect(text[2]).toBe("03:04:05.678  error  commit_failed        commit failed: ENOSPC");
  expect(text.slice(3).map((l) => l.trim())).toEqual(["Error: ENOSPC", "at write"]);
});

test("reading a session's log: none before it exists, a note naming the file when it is not a regular file", () => {
  using s = scratch();
  const dir = s.dir();
  expect(readLog(dir)).toEqual([]);
  mkdirSync(join(dir, SESSION_FILES.orchestratorLog.path));
  const [note, ...rest] = readLog(dir);
  expect(rest).toEqual([]);
  expect(note).toMatchObject({ level: "warn", event: "note" });
  expect(note!.msg).toStartWith("orchestrator.log ");
});

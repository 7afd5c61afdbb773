import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readState } from "../../src/session/read.ts";
import { F, auditLog, tasksFile } from "../../src/protocol/paths.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { TOOL_ITEMS, newSession, script, segment, type Item, type LogEntry } from "./loop-harness.ts";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) removeDir(dirs.pop()!);
});

function session() {
  const root = makeTmpDir("amx-loop-");
  dirs.push(root);
  return { root, sessionDir: newSession(root) };
}

/** What a finished session holds, with the temp folder's path taken out. */
function outcome(root: string, sessionDir: string) {
  const read = (rel: string) => (existsSync(join(sessionDir, rel)) ? readFileSync(join(sessionDir, rel), "utf8") : null);
  return {
    state: JSON.parse(JSON.stringify(readState(sessionDir)).replaceAll(root, "<root>")),
    cursor: JSON.parse(read(F.toolEventState)!),
    toolBytes: readFileSync(join(sessionDir, F.toolEvents)).length,
    audit: read(auditLog),
    tasks1: read(tasksFile(1)),
    approval: read(F.approval),
    review: read(F.reviewMd),
    request: read("03_research/code-limits/request.md"),
  };
}

async function uninterrupted(items: Item[]) {
  const { root, sessionDir } = session();
  const log: LogEntry[] = [];
  const r = await segment({ root, sessionDir, items, from: 0, log });
  expect(r.result).toEqual({ code: 0, cleanup: true });
  return outcome(root, sessionDir);
}

describe("OrchestratorLoop: kill and rebuild from state.json applies every event exactly once", () => {
  const items = script();

  test("an uninterrupted run reaches done with one application per tool line", async () => {
    const o = await uninterrupted(items);
    expect(o.state.phase).toBe("done");
    expect(o.state.last_event).toBe("approval_received");
    expect(o.state.applied_tool_events).toBe(TOOL_ITEMS);
    expect(o.state.tool_cursor).toBe(o.toolBytes);
    expect(o.cursor).toEqual({ applied_offset: o.toolBytes });
    expect(o.state.outbox).toBeUndefined();
    expect(o.audit!.trim().split("\n")).toHaveLength(2);
    expect(o.tasks1).toContain("- [x] write src/part1.ts");
    expect(o.tasks1).toContain("- [ ] test part 1");
    expect(JSON.parse(o.approval!)).toEqual({ action: "approve", exclude_files: [], commit_message: "feat: rate limiting" });
    expect(o.request).toContain("# Research Request: limits");
    expect(o.request).not.toContain("again?");
  });

  test("stopped after every item, then rebuilt: same final state, no duplicate audit lines", async () => {
    const want = await uninterrupted(items);
    for (let k = 0; k < items.length - 1; k++) {
      const { root, sessionDir } = session();
      const log: LogEntry[] = [];
      const first = await segment({ root, sessionDir, items, from: 0, stopAfter: k, log });
      expect(first.result).toBeNull();
      expect(first.next).toBe(k + 1);
      const applied = readState(sessionDir);
      expect(applied.applied_tool_events ?? 0).toBe(items.slice(0, k + 1).filter((i) => "tool" in i).length);
      const rest = await segment({ root, sessionDir, items, from: first.next, log });
      expect(rest.result).toEqual({ code: 0, cleanup: true });
      const got = outcome(root, sessionDir);
      expect(got).toEqual(want);
    }
  }, 120_000);

  test("killed right after each write-ahead state (effects not run), then rebuilt: the outbox replays, nothing twice", async () => {
    const want = await uninterrupted(items);
    for (let k = 0; k < items.length; k++) {
      const { root, sessionDir } = session();
      const log: LogEntry[] = [];
      const item = items[k]!;
      const at = "tool" in item ? item.at : item.event.at;
      const first = await segment({ root, sessionDir, items, from: 0, crash: { at }, log });
      expect(first.result).toBeNull();
      expect(first.next).toBe(k + 1);
      const persisted = readState(sessionDir);
      expect(persisted.updated_at).toBe(at);
      const rest = await segment({ root, sessionDir, items, from: first.next, log });
      expect(rest.result).toEqual({ code: 0, cleanup: true });
      if (persisted.outbox?.length) expect(log.filter((l) => l.event === "effects_replayed").map((l) => l.data?.count)).toEqual([persisted.outbox.length]);
      expect(outcome(root, sessionDir)).toEqual(want);
    }
  }, 120_000);
});

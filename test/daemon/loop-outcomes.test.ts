/**
 * The loop takes each effect's outcome into its one queue: the commit's event, produced by the
 * effect, moves the run to done; a commit that throws is the loop's `effect_failed`, which fails
 * the run with the effect's own words. The real loop and transition on a scripted run, no tmux.
 */
import { afterEach, expect, test } from "bun:test";
import { readState } from "../../src/session/read.ts";
import type { LogEntry } from "./loop-harness.ts";
import { newSession, script, segment } from "./loop-harness.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

let root: string | null = null;
afterEach(() => {
  if (root) removeDir(root);
  root = null;
});

/** The scripted run to its commit, with `commit` as the commit flow. */
async function runWithCommit(commit: Parameters<typeof segment>[0]["commit"]) {
  root = makeTmpDir("amx-loop-outcomes-");
  const sessionDir = newSession(root);
  const log: LogEntry[] = [];
  const r = await segment({ root, sessionDir, items: script(), from: 0, log, commit });
  return { r, sessionDir, log };
}

test("the commit's outcome is the event that ends the run: done, exit 0, its hash recorded", async () => {
  const { r, sessionDir } = await runWithCommit(async () => ({
    type: "committed",
    at: "2030-01-01T00:00:00.000Z",
    hash: "feed123",
    branch: "feature/rate-limit",
    pr_url: null,
  }));
  expect(r.result?.code).toBe(0);
  const s = readState(sessionDir);
  expect(s.phase).toBe("done");
  expect(JSON.stringify(s)).toContain("feed123");
}, 60_000);

test("a commit that throws: effect_failed, the run failed with the effect's words, exit 1", async () => {
  const { r, sessionDir, log } = await runWithCommit(async () => {
    throw new Error("the index is locked (index.lock)");
  });
  expect(r.result?.code).toBe(1);
  const s = readState(sessionDir);
  expect(s.phase).toBe("failed");
  expect(JSON.stringify(s)).toContain("commit failed: the index is locked (index.lock)");
  expect(log.some((l) => l.event === "effect_failed" && l.data?.effect === "commit")).toBe(true);
}, 60_000);

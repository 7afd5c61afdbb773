import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionFileWatcher } from "../../src/bus/session-files.ts";
import { dropCancelRequest, requestCancel, takeCancelRequest } from "../../src/session/cancel.ts";
import type { Event } from "../../src/schema/events.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

let dirs: string[] = [];
afterEach(() => {
  dirs.forEach(removeDir);
  dirs = [];
});
const session = () => {
  const d = makeTmpDir("amx-cancel-");
  dirs.push(d);
  mkdirSync(join(d, ".runtime"));
  return d;
};

test("a cancel request present at start fires once and is consumed: the next watcher (a resume) sees nothing", () => {
  const dir = session();
  requestCancel(dir, "monitor");
  const first: Event[] = [];
  const w1 = new SessionFileWatcher(
    dir,
    (e) => first.push(e),
    () => {},
  );
  w1.check();
  w1.check();
  expect(first).toEqual([{ type: "cancel", at: expect.any(String), reason: "canceled by the user (monitor)" }]);
  expect(existsSync(join(dir, ".runtime/cancel_request"))).toBe(false);
  const second: Event[] = [];
  new SessionFileWatcher(
    dir,
    (e) => second.push(e),
    () => {},
  ).check();
  expect(second).toEqual([]);
});

test("each new request fires again; the signal a headless launcher got is the cause", () => {
  const dir = session();
  const seen: Event[] = [];
  const w = new SessionFileWatcher(
    dir,
    (e) => seen.push(e),
    () => {},
  );
  requestCancel(dir, "cli", "SIGTERM");
  w.check();
  requestCancel(dir, "cli", "SIGINT");
  w.check();
  requestCancel(dir, "home");
  w.check();
  expect(seen.map((e) => (e.type === "cancel" ? e.reason : e.type))).toEqual([
    "canceled: agentmux received SIGTERM",
    "canceled by the user (Ctrl-C)",
    "canceled by the user (home screen)",
  ]);
});

test("a request still being written is not taken half-read; one that stays invalid is still a cancel", async () => {
  const dir = session();
  const seen: Event[] = [];
  const w = new SessionFileWatcher(
    dir,
    (e) => seen.push(e),
    () => {},
  );
  writeFileSync(join(dir, ".runtime/cancel_request"), '{"at":"x","by":"mon');
  w.check();
  expect(seen).toEqual([]);
  await waitFor("the invalid request to be taken", () => (w.check(), seen.length === 1), { timeoutMs: 3000, intervalMs: 50 });
  expect(seen[0]).toMatchObject({ type: "cancel", reason: "canceled by a cancel request of unknown origin" });
});

test("take claims atomically: only one of two readers gets it; drop reports whether there was one", () => {
  const dir = session();
  requestCancel(dir, "monitor");
  expect(takeCancelRequest(dir)).toEqual({ request: { at: expect.any(String), by: "monitor" } });
  expect(takeCancelRequest(dir)).toBeNull();
  expect(dropCancelRequest(dir)).toBe(false);
  requestCancel(dir, "home");
  expect(dropCancelRequest(dir)).toBe(true);
  expect(existsSync(join(dir, ".runtime/cancel_request"))).toBe(false);
});

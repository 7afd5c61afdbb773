import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SessionFileWatcher } from "../../src/bus/session-files.ts";
import { F } from "../../src/protocol/paths.ts";
import type { Event } from "../../src/schema/events.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

let stops: (() => void)[] = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
});

function watcher(stableMs: number) {
  const dir = makeTmpDir("amx-files-");
  mkdirSync(join(dir, ".runtime"));
  mkdirSync(dirname(join(dir, F.summary)), { recursive: true });
  const seen: Event[] = [];
  // no safety poll within the test: only the change notification and the stability wake-up
  const w = new SessionFileWatcher(
    dir,
    (e) => seen.push(e),
    () => {},
    stableMs,
    () => true,
    600_000,
  );
  w.start();
  stops.push(() => (w.stop(), removeDir(dir)));
  return { dir, seen, w };
}

test("a summary fires once it has stood still for stableMs, without waiting for a poll", async () => {
  const { dir, seen } = watcher(200);
  writeFileSync(join(dir, F.summary), "# Summary\n\nAll good.\n");
  await waitFor("summary_written", () => seen.length > 0, { timeoutMs: 10_000 });
  expect(seen.map((e) => e.type)).toEqual(["summary_written"]);
});

test("finished: the agent that owes the summary ended its turn: it fires at once, then never again for that version", () => {
  const { dir, seen, w } = watcher(600_000);
  writeFileSync(join(dir, F.summary), "# Summary\n\nAll good.\n");
  w.check();
  expect(seen).toEqual([]); // it would wait out the stability window
  w.finished(F.summary);
  expect(seen.map((e) => e.type)).toEqual(["summary_written"]);
  w.check();
  expect(seen.length).toBe(1);
});

test("finished on an empty or missing file fires nothing", () => {
  const { dir, seen, w } = watcher(600_000);
  w.finished(F.summary);
  writeFileSync(join(dir, F.summary), "  \n");
  w.finished(F.summary);
  expect(seen).toEqual([]);
});

test("a summary still being written waits until it stands still, and fires once", async () => {
  const { dir, seen, w } = watcher(400);
  const path = join(dir, F.summary);
  writeFileSync(path, "# Summary\n");
  w.check();
  writeFileSync(path, "# Summary\n\nAll good.\n");
  w.check();
  expect(seen).toEqual([]);
  await waitFor("summary_written", () => seen.length > 0, { timeoutMs: 10_000 });
  w.check();
  expect(seen.map((e) => e.type)).toEqual(["summary_written"]);
});

/**
 * The run API's cost where it runs most: the CI printer and the web page read a run's
 * state.json and derive its snapshot and the events since the last one (the printer every
 * 100 ms). Over the real sim sessions in test/fixtures/run-api/sessions, the median of: a poll
 * (read state.json and runtime_state.json, snapshot(), events(prev, next)), the derivation alone,
 * and its floor (reading and parsing state.json with no schema, the least any reader does).
 * Usage: bun bench/run-api.ts   (RUN_API_ITERATIONS=2000 by default)
 * Last line: {"bench":"run-api","sessions":4,"poll_us":…,"derive_us":…,"floor_us":…,"poll_ratio":…}
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { events } from "../src/report/events.ts";
import { readSnapshotInput } from "../src/report/read.ts";
import { snapshot } from "../src/report/snapshot.ts";
import type { RunSnapshot } from "../src/schema/run-api/snapshot.ts";

const ROOT = join(import.meta.dir, "..", "test", "fixtures", "run-api", "sessions");
const N = Number(process.env.RUN_API_ITERATIONS ?? 2000);
const dirs = readdirSync(ROOT)
  .sort()
  .map((n) => join(ROOT, n));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(f: () => void): number {
  const t = performance.now();
  for (let i = 0; i < N; i++) f();
  return ((performance.now() - t) / N) * 1000;
}

const polls: number[] = [];
const derives: number[] = [];
const floors: number[] = [];
for (const dir of dirs) {
  const input = readSnapshotInput(dir, { id: "bench", live: true, now: Date.now(), countToolEvents: false });
  let prev: RunSnapshot | null = null;
  floors.push(time(() => void JSON.parse(readFileSync(join(dir, "state.json"), "utf8"))));
  derives.push(time(() => void events(prev, snapshot(input))));
  polls.push(
    time(() => {
      const next = snapshot(readSnapshotInput(dir, { id: "bench", live: true, now: Date.now(), countToolEvents: false }));
      events(prev, next);
      prev = next;
    }),
  );
}
const us = (x: number) => Math.round(x * 10) / 10;
const [poll, derive, floor] = [median(polls), median(derives), median(floors)];
console.error(`per session: poll ${polls.map(us).join(", ")} µs; derive ${derives.map(us).join(", ")} µs; floor ${floors.map(us).join(", ")} µs`);
console.log(
  JSON.stringify({
    bench: "run-api",
    sessions: dirs.length,
    iterations: N,
    poll_us: us(poll),
    derive_us: us(derive),
    floor_us: us(floor),
    poll_ratio: Math.round((poll / floor) * 100) / 100,
  }),
);

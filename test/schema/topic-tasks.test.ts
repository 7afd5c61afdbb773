import { expect, test } from "bun:test";
import { State } from "../../src/schema/state.ts";
import { TopicTasks, type TopicStatus } from "../../src/schema/topic-tasks.ts";
import { freshState } from "../orchestrator/fixtures.ts";

/** A small deterministic generator (mulberry32): the same operations on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// the model: the plain record the orchestrator used to copy on every change (spread, delete)
const withModel = (r: Record<string, TopicStatus>, topic: string, s: TopicStatus) => ({ ...r, [topic]: s });
const withoutModel = (r: Record<string, TopicStatus>, topic: string) => {
  const { [topic]: _gone, ...rest } = r;
  return rest;
};

test("TopicTasks behaves as the plain record, key order included, and never changes an older version", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const next = random(seed);
    // numeric-looking topics too: a record puts them first, and so must toJSON
    const topics = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? String(i) : `topic-${i}`));
    let model: Record<string, TopicStatus> = {};
    let tasks = TopicTasks.EMPTY;
    const kept: [TopicTasks, string][] = [];
    for (let i = 0; i < 3000; i++) {
      const topic = topics[Math.floor(next() * (i < 1500 ? topics.length : 40))]!;
      const roll = next();
      if (roll < 0.15) {
        model = withoutModel(model, topic);
        tasks = tasks.without(topic);
      } else {
        const status: TopicStatus = roll < 0.6 ? "dispatched" : "done";
        model = withModel(model, topic, status);
        tasks = tasks.with(topic, status);
      }
      expect(tasks.get(topic)).toBe(model[topic]);
      expect(tasks.size).toBe(Object.keys(model).length);
      if (i % 97 === 0) {
        expect(JSON.stringify(tasks)).toBe(JSON.stringify(model));
        expect(tasks.entries()).toEqual(Object.entries(model));
        expect(tasks.hasStatus("dispatched")).toBe(Object.values(model).includes("dispatched"));
        kept.push([tasks, JSON.stringify(model)]);
      }
    }
    expect(JSON.stringify(tasks.toJSON())).toBe(JSON.stringify(model));
    for (const [old, json] of kept) expect(JSON.stringify(old)).toBe(json);
  }
});

test("changes made to older versions, in any order, leave every version as it was made", () => {
  // versions share one Map that moves to the version used: branching from old versions and
  // reading them back in a random order walks it back and forth across removals and re-adds
  for (const seed of [7, 8, 9]) {
    const next = random(seed);
    const topics = Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? String(i) : `t-${i}`));
    const versions: [TopicTasks, Record<string, TopicStatus>][] = [[TopicTasks.EMPTY, {}]];
    for (let i = 0; i < 2000; i++) {
      const [tasks, model] = versions[Math.floor(next() * versions.length)]!;
      const topic = topics[Math.floor(next() * topics.length)]!;
      const roll = next();
      const made: [TopicTasks, Record<string, TopicStatus>] =
        roll < 0.25 ? [tasks.without(topic), withoutModel(model, topic)] : [tasks.with(topic, roll < 0.6 ? "dispatched" : "done"), withModel(model, topic, roll < 0.6 ? "dispatched" : "done")];
      versions.push(made);
      const [check, expected] = versions[Math.floor(next() * versions.length)]!;
      expect(JSON.stringify(check)).toBe(JSON.stringify(expected));
      expect(check.get(topic)).toBe(expected[topic]);
      expect(check.hasStatus("done")).toBe(Object.values(expected).includes("done"));
    }
    for (const [tasks, model] of versions) expect(JSON.stringify(tasks)).toBe(JSON.stringify(model));
    expect(JSON.stringify(TopicTasks.EMPTY)).toBe("{}");
  }
});

test("two maps with the same topics are equal (toEqual), whatever their history; different ones are not", () => {
  const a = TopicTasks.EMPTY.with("a", "dispatched").with("b", "dispatched").with("a", "done");
  const b = TopicTasks.of({ a: "done", b: "dispatched" });
  expect(a).toEqual(b);
  expect(a.with("b", "done")).not.toEqual(b);
  expect(a.without("b")).not.toEqual(b);
  expect(a.without("b").with("b", "dispatched")).toEqual(b);
  // unchanged by a change that changes nothing
  expect(b.with("a", "done")).toBe(b);
  expect(b.without("zzz")).toBe(b);
});

test("state.json holds the plain record; reading it gives the map back, and a bad status names the field", () => {
  const tasks = TopicTasks.EMPTY.with("limits", "dispatched").with("9", "done").with("caches", "done");
  const state = { ...freshState(), research_tasks: tasks };
  const written = JSON.parse(JSON.stringify(State.parse(state)));
  expect(written.research_tasks).toEqual({ 9: "done", limits: "dispatched", caches: "done" });
  expect(JSON.stringify(written.research_tasks)).toBe('{"9":"done","limits":"dispatched","caches":"done"}');
  const read = State.parse(written);
  expect(read.research_tasks).toBeInstanceOf(TopicTasks);
  expect(read.research_tasks).toEqual(tasks);
  const bad = State.safeParse({ ...written, research_tasks: { x: "finished" } });
  expect(bad.success).toBe(false);
  expect(bad.error!.issues[0]!.path).toEqual(["research_tasks", "x"]);
});

import { expect, test } from "bun:test";
import { State } from "../../src/schema/state.ts";
import { withoutTopic, withTopic, type TopicTasks } from "../../src/schema/topic-tasks.ts";
import { freshState } from "../orchestrator/fixtures.ts";

test("a topic dispatched again keeps its place, a new one goes last, and the record given is never changed", () => {
  const first: TopicTasks = withTopic(undefined, "limits", "dispatched");
  const second = withTopic(first, "caches", "dispatched");
  const third = withTopic(second, "limits", "done");
  expect(Object.entries(third)).toEqual([
    ["limits", "done"],
    ["caches", "dispatched"],
  ]);
  expect(first).toEqual({ limits: "dispatched" });
  expect(second).toEqual({ limits: "dispatched", caches: "dispatched" });
  const removed = withoutTopic(third, "limits");
  expect(removed).toEqual({ caches: "dispatched" });
  expect(third).toEqual({ limits: "done", caches: "dispatched" });
  expect(Object.keys(withTopic(removed, "limits", "dispatched"))).toEqual(["caches", "limits"]);
  expect(withoutTopic(undefined, "x")).toEqual({});
});

test("state.json holds the record as it is, and a bad status names the field", () => {
  const tasks = withTopic(withTopic(withTopic(undefined, "limits", "dispatched"), "9", "done"), "caches", "done");
  const written = JSON.parse(JSON.stringify(State.parse({ ...freshState(), research_tasks: tasks })));
  expect(JSON.stringify(written.research_tasks)).toBe('{"9":"done","limits":"dispatched","caches":"done"}');
  expect(State.parse(written).research_tasks).toEqual(tasks);
  const bad = State.safeParse({ ...written, research_tasks: { x: "finished" } });
  expect(bad.success).toBe(false);
  expect(bad.error!.issues[0]!.path).toEqual(["research_tasks", "x"]);
});

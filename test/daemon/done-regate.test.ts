import { afterEach, expect, test } from "bun:test";
import { readState } from "../../src/session/read.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { newSession, script, segment, type Item, type LogEntry } from "./loop-harness.ts";

/**
 * #31.1: a sealed line proves only that its writer held the seal key. A process that read the key
 * sealed a submit_done backed by a lying done file and the run moved on to review: the gate ran
 * when the tool was called, never when the line was applied. The loop harness seals its lines
 * exactly so (the session's key, read from its file), with no endpoint and no gate in between.
 */
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) removeDir(dirs.pop()!);
});

/** The scripted run up to subplan 1's submit_done (item 6); `work`: whether the coder really wrote its file. */
async function upToDone(work: boolean) {
  const root = makeTmpDir("amx-regate-");
  dirs.push(root);
  const sessionDir = newSession(root);
  const items: Item[] = script();
  if (!work) delete items[6]!.work;
  const log: LogEntry[] = [];
  await segment({ root, sessionDir, items, from: 0, stopAfter: 6, log });
  return { state: readState(sessionDir), log: log.map((l) => l.msg).join("\n") };
}

test("a sealed submit_done whose done file lies is rejected when applied: the subplan is not done, the run does not move on", async () => {
  const { state, log } = await upToDone(false);
  expect(state.phase).toBe("implementing");
  expect(state.completed_subplans).toEqual([]);
  expect(state.last_event).not.toBe("implementation_completed");
  expect(log).toContain(
    "tool event submit_done rejected: subplan 1's 06_implementation/done_1.json no longer passes the verification gate when its call is applied",
  );
  expect(log).toContain('files_created[0]: "src/part1.ts" is claimed created but does not exist');
});

test("the same line with the work really done is applied (the contrast: the re-check passes true claims)", async () => {
  const { state, log } = await upToDone(true);
  expect(state.completed_subplans).toEqual(["1"]);
  expect(log).not.toContain("no longer passes the verification gate");
});

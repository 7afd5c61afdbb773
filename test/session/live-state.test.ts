import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/effects/fs/atomic.ts";
import { SessionFolderGone, writeLiveState } from "../../src/session/folder-gone.ts";
import { readState } from "../../src/session/read.ts";
import { F } from "../../src/protocol/paths.ts";
import type { State } from "../../src/schema/state.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { newSession } from "../daemon/loop-harness.ts";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) removeDir(dirs.pop()!);
});

test("an atomic write told the folder exists creates no folder: a missing one is ENOENT", () => {
  const root = makeTmpDir("amx-live-state-");
  dirs.push(root);
  const gone = join(root, "session");
  expect(() => writeFileAtomic(join(gone, "state.json"), "{}", { existingDir: true })).toThrow(expect.objectContaining({ code: "ENOENT" }));
  expect(existsSync(gone)).toBe(false);
});

// git clean deletes file by file: the session folder can go after state.json was replaced and
// before its tool_event_state.json mirror is written. The mirror's write brought the folder back
// (an atomic write creates its folder), or failed with ENOENT, which crashed the orchestrator
// into a report naming the phase before the transition (test/e2e/folder-deleted, once in a full run).
test("the session folder going between state.json and its mirror: SessionFolderGone, recorded, and the folder stays gone", () => {
  const root = makeTmpDir("amx-live-state-");
  dirs.push(root);
  const dir = newSession(root);
  const state = { ...readState(dir), phase: "implementing", updated_by: "live-state-test" } as State;
  // the folder is deleted the first time the cursor is read once state.json holds this state
  Object.defineProperty(state, "tool_cursor", {
    enumerable: true,
    get() {
      const file = join(dir, F.state);
      if (existsSync(file) && readFileSync(file, "utf8").includes("live-state-test")) rmSync(dir, { recursive: true, force: true });
      return 42;
    },
  });
  let thrown: unknown;
  try {
    writeLiveState(dir, state);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(SessionFolderGone);
  expect((thrown as InstanceType<typeof SessionFolderGone>).data).toMatchObject({ dir, phase: "implementing", recorded: true });
  expect(existsSync(dir)).toBe(false);
});

import { afterEach, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { appendLine } from "../../src/effects/fs/atomic.ts";
import { OrchestratorLoop } from "../../src/daemon/loop.ts";
import { readToolLines } from "../../src/bus/tool-lines.ts";
import { loadSealKey, sealLine } from "../../src/bus/tool-seal.ts";
import { readState } from "../../src/session/read.ts";
import { writeState } from "../../src/session/write.ts";
import { F } from "../../src/protocol/paths.ts";
import type { State } from "../../src/schema/state.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { settings } from "../orchestrator/fixtures.ts";
import { newSession } from "./loop-harness.ts";

/**
 * #15: lines applied before (skipped by their seq after tool_events.jsonl was reset) moved the
 * cursor with one state.json write each: 3–6 ms per line with a large state, minutes for a long
 * log. The cursor is written once now; losing it in a crash only means skipping them again.
 */
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) removeDir(dirs.pop()!);
});

test("a catch-up over lines applied before writes the state once, with the cursor after the last line", async () => {
  const root = makeTmpDir("amx-catchup-");
  dirs.push(root);
  const sessionDir = newSession(root);
  const key = loadSealKey(sessionDir);
  const path = join(sessionDir, F.toolEvents);
  const N = 200;
  for (let seq = 1; seq <= N; seq++) {
    const body = {
      tool: "research_dispatch_code",
      timestamp: "2024-01-01T00:00:01.000Z",
      payload: { topic: `t${seq}`, context: "c", questions: ["q"], scope_hints: null, research_type: "code" },
      agent: "architect",
      role: "architect",
      seq,
    };
    appendLine(path, sealLine(key, JSON.stringify(body)));
  }
  // every line was applied before the file was read again from the start
  writeState(sessionDir, { ...readState(sessionDir), phase: "architecting", tool_seq: N, tool_cursor: 0 } as State);
  const { config } = loadConfig({ projectDir: root, env: { HOME: root } });
  let writes = 0;
  const persist = (s: State) => {
    writes++;
    writeState(sessionDir, s);
  };
  const ctx = {
    sessionDir,
    projectDir: root,
    workDir: root,
    config,
    runtime: null,
    log: () => {},
    sealKey: key,
    commit: async () => {
      throw new Error("no commit while catching up");
    },
  };
  const loop = new OrchestratorLoop(readState(sessionDir), settings({ skip_final_approval: true }), ctx, ctx.log, persist);
  await loop.catchUp(readToolLines(path, 0));
  const size = statSync(path).size;
  expect(loop.state.tool_cursor).toBe(size);
  expect(readState(sessionDir).tool_cursor).toBe(size);
  expect(writes).toBeLessThanOrEqual(2); // the cursor, and the resumed mark
});

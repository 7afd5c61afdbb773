import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { owedFileWritten } from "../../src/daemon/owed-file.ts";
import { drive } from "../orchestrator/fixtures.ts";
import { reach } from "../orchestrator/reach.ts";
import { makeTmpDir } from "../helpers/tmp.ts";

test("a turn end finds the file the agent owes alone when it is on disk and not empty", () => {
  const dir = makeTmpDir("amx-owed-file-");
  const { state, ev } = reach("reviewing");
  const summary = drive(state, [ev.review("reviewer_logic", "pass"), ev.review("reviewer_quality", "pass")]).state;
  const ended = ev.turnEnded("reviewer_logic");
  expect(owedFileWritten(ended, summary, dir)).toBeNull(); // not written yet
  mkdirSync(join(dir, "08_completion"), { recursive: true });
  writeFileSync(join(dir, "08_completion/summary.md"), "  \n");
  expect(owedFileWritten(ended, summary, dir)).toBeNull(); // blank is not written
  writeFileSync(join(dir, "08_completion/summary.md"), "# Summary\n");
  expect(owedFileWritten(ended, summary, dir)).toBe("08_completion/summary.md");
  // an agent that owes a tool call: its files say nothing
  const { state: planning, ev: ev2 } = reach("planning");
  mkdirSync(join(dir, "04_planning"), { recursive: true });
  writeFileSync(join(dir, "04_planning/plan.yaml"), "x: 1\n");
  const planner = ev2.turnEnded("planner");
  expect(owedFileWritten(planner, planning, dir)).toBeNull();
});

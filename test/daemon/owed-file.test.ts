import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withOwedFile } from "../../src/daemon/owed-file.ts";
import { drive } from "../orchestrator/fixtures.ts";
import { reach } from "../orchestrator/reach.ts";
import { makeTmpDir } from "../helpers/tmp.ts";

test("a turn end is marked owed_file_written when the file the agent owes alone is on disk and not empty", () => {
  const dir = makeTmpDir("amx-owed-file-");
  const { state, ev } = reach("reviewing");
  const summary = drive(state, [ev.review("reviewer_logic", "pass"), ev.review("reviewer_quality", "pass")]).state;
  const ended = ev.turnEnded("reviewer_logic");
  expect(withOwedFile(ended, summary, dir)).toEqual(ended); // not written yet
  mkdirSync(join(dir, "08_completion"), { recursive: true });
  writeFileSync(join(dir, "08_completion/summary.md"), "  \n");
  expect(withOwedFile(ended, summary, dir)).toEqual(ended); // blank is not written
  writeFileSync(join(dir, "08_completion/summary.md"), "# Summary\n");
  expect(withOwedFile(ended, summary, dir)).toMatchObject({ type: "agent_turn_ended", agent: "reviewer_logic", owed_file_written: true });
  // an agent that owes a tool call: its files say nothing
  const { state: planning, ev: ev2 } = reach("planning");
  mkdirSync(join(dir, "04_planning"), { recursive: true });
  writeFileSync(join(dir, "04_planning/plan.yaml"), "x: 1\n");
  const planner = ev2.turnEnded("planner");
  expect(withOwedFile(planner, planning, dir)).toEqual(planner);
});

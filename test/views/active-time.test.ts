import { expect, test } from "bun:test";
import { toPlain } from "../../src/views/line.ts";
import { monitorView } from "../../src/views/monitor.ts";
import { monitorInput } from "../helpers/monitor-input.ts";
import { statusJson, statusView } from "../../src/views/status.ts";
import type { State } from "../../src/schema/state.ts";
import { at, stateIn } from "../tui/fixtures.ts";
import { prepareResume } from "../../src/orchestrator/resume.ts";

/**
 * One clock for a run: the monitor's, status's "Elapsed"/"Ran" and the goodbye's "Elapsed" count
 * the run's active time across resumes (state.active_ms, earlier lifetimes, plus the current
 * one since state.active_since). The monitor and status counted the wall time since the run
 * was created, the idle hours between a cancel and a resume included.
 */
// created at 0, ran 10 minutes, canceled; resumed at 60
const resumed = (over: Partial<State> = {}) => stateIn("implementing", { active_ms: 10 * 60_000, active_since: at(60), updated_at: at(61), ...over });
const monitor = (state: State, now: number) =>
  monitorView(monitorInput({ dir: "/p/.agentmux/.sessions/s", state, created: [], now }), { width: 80, height: 30 })
    .map(toPlain)
    .join("\n");
const status = (state: State, now: number, live: boolean) =>
  statusView({ dir: "/d", id: "s1", state, created: [], live, toolEvents: 0, now }, 100).map(toPlain).join("\n");

test("a live resumed run: the monitor's clock and status count the 10 minutes before the cancel and the 5 since the resume", () => {
  const now = Date.parse(at(65));
  expect(monitor(resumed(), now)).toContain("◷ 0:15:00");
  expect(status(resumed(), now, true)).toMatch(/Elapsed\s+15m 0s \(active time\)/);
  expect(statusJson({ dir: "/d", id: "s1", state: resumed(), created: [], live: true, toolEvents: 0, now }).active_ms).toBe(15 * 60_000);
});

test("a resumed run canceled again: status's Ran line is its active time, not the time since it was created", () => {
  const stopped = resumed({ updated_at: at(70), interruption_category: "canceled", interruption_cause: "canceled by you" });
  expect(status(stopped, Date.parse(at(90)), false)).toMatch(/Ran\s+20m 0s active · stopped/);
});

test("a run never resumed: active time is the time since it started", () => {
  const now = Date.parse(at(20));
  expect(monitor(stateIn("planning"), now)).toContain("◷ 0:20:00");
  expect(status(stateIn("planning"), now, true)).toMatch(/Elapsed\s+20m 0s \(active time\)/);
});

test("right after agentmux resume wrote the resumed state, the clock goes on from the earlier lifetimes, the idle time not counted", () => {
  const canceled = stateIn("implementing", { active_since: at(0), updated_at: at(10), interruption_category: "canceled" });
  const next = prepareResume(canceled, { pmDone: true, hasArchitecture: true, hasExecutionPlan: true, hasDesign: true }, at(60));
  expect(next.active_ms).toBe(10 * 60_000);
  expect(monitor(next, Date.parse(at(60)))).toContain("◷ 0:10:00");
  // a resume that fails before its orchestrator starts, then a second one: still 10 minutes
  expect(
    prepareResume({ ...next, updated_at: at(60) }, { pmDone: true, hasArchitecture: true, hasExecutionPlan: true, hasDesign: true }, at(90)).active_ms,
  ).toBe(10 * 60_000);
});

import { expect, test } from "bun:test";
import { toPlain } from "../../src/views/line.ts";
import { monitorView } from "../../src/views/monitor.ts";
import { monitorInput } from "../helpers/monitor-input.ts";
import { statusView } from "../../src/views/status.ts";
import type { State } from "../../src/schema/state.ts";
import { apply } from "../orchestrator/fixtures.ts";
import { reach } from "../orchestrator/reach.ts";

/**
 * The review loop has one count and one name wherever a user reads it: the pipeline said
 * "iter 2" while the reviewers' panes said "round 3" (demo --scenario review_fail_once,line_comments).
 */
const pipeline = (state: State) =>
  monitorView(monitorInput({ dir: "/p/.agentmux/.sessions/s", state, created: [], now: NOW }), { width: 60, height: 40 })
    .map(toPlain)
    .join("\n");
const status = (state: State) => statusView({ dir: "/d", id: "s1", state, created: [], live: true, toolEvents: 0, now: NOW }, 100).map(toPlain).join("\n");
const NOW = Date.parse("2026-01-01T12:00:00Z");
const roundOf = (label: string | undefined) => /round (\d+)/.exec(label ?? "")?.[1];

test("two failed reviews: the pipeline, status and the panes say the same fix round and review round", () => {
  const { state, ev } = reach("reviewing");
  let r = apply(state, ev.review("reviewer_quality", "pass"));
  r = apply(r.state, ev.review("reviewer_logic", "fail"));
  expect(r.state.phase).toBe("fixing");
  expect(r.state.agents!.coder!.label).toBe("[coder] fix round 1");
  expect(pipeline(r.state)).toContain("› fix round 1");
  expect(status(r.state)).toContain("Reviews (round 1)"); // the verdicts shown are round 1's

  r = apply(r.state, ev.done(1));
  expect(roundOf(r.state.agents!.reviewer_logic!.label)).toBe("2");
  expect(pipeline(r.state)).toContain("› review round 2");
  r = apply(r.state, ev.review("reviewer_quality", "pass"));
  r = apply(r.state, ev.review("reviewer_logic", "fail"));
  expect(r.state.agents!.coder!.label).toBe("[coder] fix round 2");
  expect(pipeline(r.state)).toContain("› fix round 2");

  r = apply(r.state, ev.done(1));
  expect(roundOf(r.state.agents!.reviewer_logic!.label)).toBe("3");
  expect(pipeline(r.state)).toContain("› review round 3");
  expect(pipeline(r.state)).not.toContain("iter");
  expect(status(r.state)).toContain("Reviews (round 3)");
});

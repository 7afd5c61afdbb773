import { describe, expect, test } from "bun:test";
import { apply, ofType } from "./fixtures.ts";
import { reach } from "./reach.ts";
import { prepareResume } from "../../src/orchestrator/resume.ts";

const facts = { pmDone: false, hasArchitecture: true, hasExecutionPlan: true, hasDesign: false };

/** #14.2: usage is recorded per conversation; a budget stops a headless run with the figure and tells a watched run once. */
describe("usage and the run's budget", () => {
  test("no budget: figures are recorded, nothing else happens; a later reading replaces the earlier", () => {
    const { state, ev, s } = reach("implementing");
    let r = apply(state, ev.usage("coder", 0.5, "conv-1"), s);
    r = apply(r.state, ev.usage("coder", 0.75, "conv-1"), s);
    r = apply(r.state, ev.usage("planner", 0.25, "conv-2"), s);
    expect(Object.fromEntries(Object.entries(r.state.usage!).map(([k, v]) => [k, v.cost_usd]))).toEqual({ "conv-1": 0.75, "conv-2": 0.25 });
    expect(r.state.phase).toBe("implementing");
    expect(r.effects).toEqual([]);
  });

  test("headless: reaching max_cost_usd fails the run with the figure", () => {
    const { state, ev, s } = reach("implementing");
    const settings = { ...s, headless: true, limits: { max_cost_usd: 1, max_tokens: null } };
    let r = apply(state, ev.usage("coder", 0.6, "conv-1"), settings);
    expect(r.state.phase).toBe("implementing");
    r = apply(r.state, ev.usage("planner", 0.5, "conv-2"), settings);
    expect(r.state.phase).toBe("failed");
    expect(r.state.interruption_cause).toBe("budget reached: the run has used an estimated $1.10 of its $1.00 budget (limits.max_cost_usd)");
  });

  test("watched: at max_tokens the agents are paused (not killed) and the user asked, once; g lets them go on; a cancel continues them first", () => {
    const { state, ev, s } = reach("implementing");
    const settings = { ...s, limits: { max_cost_usd: null, max_tokens: 50_000 } };
    let r = apply(state, ev.usage("coder", 0.1, "conv-1"), settings);
    expect(r.effects).toEqual([]);
    r = apply(r.state, ev.usage("planner", 0.1, "conv-2"), settings);
    expect(r.state.budget_reached).toEqual({
      at: expect.any(String),
      text: "the run has used 52k tokens (52000) of its 50k budget (limits.max_tokens)",
      paused: true,
    });
    expect(ofType(r.effects, "pause_agents")).toEqual([{ type: "pause_agents", pause: true }]);
    expect(ofType(r.effects, "kill_agent")).toEqual([]);
    expect(ofType(r.effects, "attention").map((e) => e.text)).toEqual([
      "budget reached, agents paused — the run has used 52k tokens (52000) of its 50k budget (limits.max_tokens). In the monitor: g goes on, c cancels.",
    ]);
    const paused = r.state;
    r = apply(paused, ev.usage("planner", 0.2, "conv-2"), settings);
    expect(r.effects).toEqual([]);
    r = apply(r.state, ev.goOn(), settings);
    expect(r.state.budget_reached!.paused).toBe(false);
    expect(ofType(r.effects, "pause_agents")).toEqual([{ type: "pause_agents", pause: false }]);
    expect(r.state.phase).toBe("implementing");
    // the budget is not checked again once the user let the run go on
    r = apply(r.state, ev.usage("coder", 0.3, "conv-3"), settings);
    expect(r.effects).toEqual([]);
    // canceling a paused run continues its agents before they are ended
    r = apply(paused, ev.cancel(), settings);
    expect(r.effects.map((e) => e.type).indexOf("pause_agents")).toBeLessThan(r.effects.map((e) => e.type).indexOf("finish"));
    expect(r.state.phase).toBe("failed");
  });

  test("a run resumed while paused at its budget stays paused: the pause comes before its relaunches and the user is asked again; headless, it fails saying how to go on", () => {
    const { state, ev, s } = reach("implementing");
    const settings = { ...s, limits: { max_cost_usd: null, max_tokens: 50_000 } };
    const paused = apply(apply(state, ev.usage("coder", 0.1, "conv-1"), settings).state, ev.usage("planner", 0.1, "conv-2"), settings).state;
    expect(paused.budget_reached!.paused).toBe(true);
    const resumed = prepareResume(paused, facts, "2024-01-02T00:00:00.000Z");
    let r = apply(resumed, ev.resume(), settings);
    const types = r.effects.map((e) => e.type);
    expect(types[0]).toBe("pause_agents");
    expect(ofType(r.effects, "pause_agents")).toEqual([{ type: "pause_agents", pause: true }]);
    expect(types).toContain("launch_agent");
    expect(ofType(r.effects, "attention")).toHaveLength(1);
    expect(r.state.budget_reached!.paused).toBe(true);
    r = apply(r.state, ev.goOn(), settings);
    expect(ofType(r.effects, "pause_agents")).toEqual([{ type: "pause_agents", pause: false }]);

    const headless = apply(resumed, ev.resume(), { ...settings, headless: true });
    expect(headless.state.phase).toBe("failed");
    expect(headless.state.interruption_cause).toBe(
      "budget reached: the run has used 52k tokens (52000) of its 50k budget (limits.max_tokens) (the run was paused there; to go on, resume it without --ci and press g in the monitor)",
    );
    expect(ofType(headless.effects, "launch_agent")).toEqual([]);
  });
});

test("no attention text names agentmux itself: the attention call prefixes every message with it", () => {
  const { state, ev, s } = reach("implementing");
  const settings = { ...s, limits: { max_cost_usd: null, max_tokens: 1 } };
  const r = apply(state, ev.usage("coder", 0.1, "conv-1"), settings);
  const texts = ofType(r.effects, "attention").map((e) => e.text);
  expect(texts).toHaveLength(1);
  for (const t of texts) expect(t).not.toMatch(/^agentmux:/);
});

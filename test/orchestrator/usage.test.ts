import { describe, expect, test } from "bun:test";
import { apply, ofType } from "./fixtures.ts";
import { reach } from "./reach.ts";

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

  test("watched: max_tokens reached asks for attention once and the run goes on", () => {
    const { state, ev, s } = reach("implementing");
    const settings = { ...s, limits: { max_cost_usd: null, max_tokens: 50_000 } };
    let r = apply(state, ev.usage("coder", 0.1, "conv-1"), settings);
    expect(ofType(r.effects, "attention")).toEqual([]);
    r = apply(r.state, ev.usage("planner", 0.1, "conv-2"), settings);
    expect(r.state.budget_reached!.text).toBe("the run has used 52k tokens (52000) of its 50k budget (limits.max_tokens)");
    expect(ofType(r.effects, "attention").map((e) => e.text)).toEqual(["agentmux: budget reached — the run has used 52k tokens (52000) of its 50k budget (limits.max_tokens)"]);
    r = apply(r.state, ev.usage("planner", 0.2, "conv-2"), settings);
    expect(ofType(r.effects, "attention")).toEqual([]);
    expect(r.state.phase).toBe("implementing");
  });
});

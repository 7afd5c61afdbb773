import { describe, expect, test } from "bun:test";
import { transition } from "../../src/orchestrator/transition.ts";
import { FILE_EFFECTS } from "../../src/daemon/interpret.ts";
import { WORKFLOW_EVENTS } from "../../src/schema/catalog.ts";
import type { Effect } from "../../src/schema/effects.ts";
import type { Event } from "../../src/schema/events.ts";
import { State } from "../../src/schema/state.ts";
import type { Settings } from "../../src/orchestrator/types.ts";
import { liveAgents } from "./fixtures.ts";
import { randomRun } from "./random-run.ts";

const SEEDS = Array.from({ length: 40 }, (_, i) => 1 + i * 7919);

/** What store.ts writeState + readState do to a state: validate, JSON file, parse, validate. */
const persist = (s: State): State => State.parse(JSON.parse(JSON.stringify(State.parse(s))));
/** Compare states as they would be on disk. */
const disk = (s: State) => JSON.parse(JSON.stringify(s));
const fileEffects = (effects: Effect[]) => effects.filter((e) => FILE_EFFECTS.has(e.type) && e.type !== "log");

type Trace = { states: State[]; effects: Effect[][] };

/** Apply events[from..] like the loop does: each event advances the cursor stored in the state. */
function run(state: State, events: Event[], s: Settings, from = state.tool_cursor ?? 0): Trace {
  const trace: Trace = { states: [], effects: [] };
  for (let i = from; i < events.length; i++) {
    const r = transition(state, events[i]!, s);
    state = { ...r.state, tool_cursor: i + 1, applied_tool_events: (r.state.applied_tool_events ?? 0) + 1 };
    trace.states.push(state);
    trace.effects.push(r.effects);
  }
  return trace;
}

describe("kill-and-replay at every event gives the same run", () => {
  for (const seed of SEEDS) {
    test(`seed ${seed}`, () => {
      const r = randomRun(seed);
      const full = run(r.initial, r.events, r.settings);
      const final = full.states.at(-1)!;

      // the uninterrupted run is a whole, valid run
      expect(final.phase).toBe("done");
      expect(full.effects.flat().filter((e) => e.type === "finish")).toEqual([{ type: "finish", code: 0, cleanup: true }]);
      expect(liveAgents(final)).toEqual([]);
      expect(final.applied_tool_events).toBe(r.events.length);
      for (const st of full.states) {
        expect(Object.keys(WORKFLOW_EVENTS)).toContain(st.last_event);
        expect(new Set(st.completed_subplans).size).toBe(st.completed_subplans.length);
        expect(st.review_iteration).toBeLessThanOrEqual(r.settings.max_review_iterations);
        expect(State.safeParse(st).success).toBe(true);
      }

      const wantFiles = full.effects.map(fileEffects);
      for (let k = 0; k < r.events.length - 1; k++) {
        // the orchestrator dies right after persisting event k; a new one starts from state.json
        const restored = persist(full.states[k]!);
        expect(restored.tool_cursor).toBe(k + 1);
        const rest = run(restored, r.events, r.settings);
        expect(rest.states.length).toBe(r.events.length - k - 1);
        expect(disk(rest.states.at(-1)!)).toEqual(disk(final));
        expect(rest.effects.map(fileEffects)).toEqual(wantFiles.slice(k + 1));
      }
    });
  }

  test("the generator produces varied runs (plan shapes, verdicts, research, noise)", () => {
    const runs = SEEDS.map((seed) => randomRun(seed));
    const count = (type: Event["type"]) => runs.reduce((n, r) => n + r.events.filter((e) => e.type === type).length, 0);
    expect(count("plan_submitted")).toBeGreaterThan(SEEDS.length);
    expect(count("research_dispatched")).toBeGreaterThan(10);
    expect(count("changes_written")).toBeGreaterThan(3);
    const groups = new Set(
      runs.flatMap((r) => r.events.flatMap((e) => (e.type === "plan_submitted" ? [e.plan.groups.map((g) => `${g.mode}${g.plans.length}`).join(",")] : []))),
    );
    expect(groups.size).toBeGreaterThan(15);
    const reviews = runs.flatMap((r) => r.events.filter((e) => e.type === "review_submitted"));
    expect(reviews.some((e) => e.type === "review_submitted" && e.review.verdict === "fail")).toBe(true);
    expect(runs.some((r) => r.settings.single_coder)).toBe(true);
    // the same seed gives the same run
    expect(randomRun(SEEDS[3]!)).toEqual(randomRun(SEEDS[3]!));
  });
});

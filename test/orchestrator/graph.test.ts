import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { HopLimit, IllegalMark, IllegalMove } from "../../src/orchestrator/errors.ts";
import { HANDLERS } from "../../src/orchestrator/phases/index.ts";
import { prepareResume } from "../../src/orchestrator/resume.ts";
import { Step } from "../../src/orchestrator/step.ts";
import { MAX_HOPS, transition } from "../../src/orchestrator/transition.ts";
import type { Entry, PhaseHandler } from "../../src/orchestrator/types.ts";
import type { Phase } from "../../src/schema/catalog.ts";
import { PHASE_MARKS, PHASE_MOVES, isPhaseMark, isPhaseMove } from "../../src/schema/moves.ts";
import type { State } from "../../src/schema/state.ts";
import { sources } from "../architecture/imports.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import { Config } from "../../src/schema/config.ts";
import { BUILTIN_CONFIG_TEXT, BUILTIN_FILE } from "../../src/config/load.ts";
import { parseConfigText } from "../../src/config/read.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";
import { apply, freshState, ofType, settings } from "./fixtures.ts";
import { randomRun } from "./random-run.ts";
import { STD_PLAN, reach } from "./reach.ts";

const FACTS = { pmDone: true, hasArchitecture: true, hasExecutionPlan: true, hasDesign: false };
const moveKey = (from: Phase, to: Phase, event: string) => `${from} → ${to} (${event})`;

/** The moves a run's history records, skipping entries of `agentmux resume`. */
function movesOf(history: NonNullable<State["history"]>): string[] {
  const out: string[] = [];
  for (let i = 1; i < history.length; i++) {
    const h = history[i]!;
    if (h.event === "resumed") continue;
    const from = history[i - 1]!.phase;
    out.push(from === h.phase && isPhaseMark(h.phase, h.event) ? `mark ${h.phase} (${h.event})` : moveKey(from, h.phase, h.event));
  }
  return out;
}

const saved = { ...HANDLERS };
afterEach(() => Object.assign(HANDLERS, saved));

describe("the move table is the state machine", () => {
  test("every move of 40 random runs is in the table, and the runs make every non-failing move of it", () => {
    const allowed = new Set([...PHASE_MOVES.map((m) => moveKey(m.from, m.to, m.event)), ...PHASE_MARKS.map((m) => `mark ${m.phase} (${m.event})`)]);
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const r = randomRun(1 + i * 7919);
      let state = r.initial;
      for (const e of r.events) state = transition(state, e, r.settings).state;
      for (const m of movesOf(state.history ?? [])) {
        expect(allowed.has(m)).toBe(true);
        seen.add(m);
      }
    }
    const wanted = [...allowed].filter((m) => !m.includes("→ failed"));
    expect(wanted.filter((m) => !seen.has(m))).toEqual([]);
  });

  test("a move outside the table throws IllegalMove with the move as data", () => {
    const { state, s } = reach("reviewing");
    const step = new Step(state, "2024-01-02T00:00:00.000Z", s, "test");
    expect(() => step.moveTo("planning", "changes_requested")).toThrow(IllegalMove);
    try {
      step.moveTo("done", "approval_received");
    } catch (e) {
      expect((e as InstanceType<typeof IllegalMove>).data).toEqual({ from: "reviewing", to: "done", event: "approval_received" });
    }
    expect(step.goto).toBeNull();
    expect(() => step.mark("plan_written")).toThrow(IllegalMark);
    step.moveTo("fixing", "review_failed");
    expect(step.goto).toEqual({ phase: "fixing", event: "review_failed" });
  });

  test("Step.fail ends the run from any working phase: failed, cause, resume command, exit code, one history entry", () => {
    const { state, s } = reach("implementing");
    const step = new Step(state, "2024-01-02T00:00:00.000Z", s, "test");
    step.moveTo("reviewing", "implementation_completed");
    step.fail("the  disk\nis full");
    expect(step.goto).toBeNull();
    expect(step.state).toMatchObject({ phase: "failed", last_event: "run_failed", interruption_category: "failed", interruption_cause: "the disk is full" });
    expect(step.state.history!.at(-1)).toEqual({ phase: "failed", event: "run_failed", at: "2024-01-02T00:00:00.000Z" });
    expect(step.state.history!.length).toBe(state.history!.length + 1);
    expect(step.effects).toEqual([{ type: "finish", code: 1, cleanup: false }]);
  });

  // a value after `phase:` that starts with a capital letter is a type (`phase: Phase`), not a write
  test("no phase handler reads last_event, and only step.ts writes phase, last_event or history", () => {
    const root = join(REPO_ROOT, "src", "orchestrator");
    for (const f of sources(root)) {
      const text = readFileSync(f, "utf8");
      const rel = relative(root, f);
      if (rel.startsWith("phases/")) expect(`${rel}: ${/last_event/.test(text)}`).toBe(`${rel}: false`);
      if (rel !== "step.ts") expect(`${rel}: ${/[{,]\s*(history|last_event|phase)\s*:(?!\s*[A-Z]\w*[;,}\s])/.test(text)}`).toBe(`${rel}: false`);
    }
  });
});

describe("entry reasons", () => {
  /** Record the entry every handler gets, without changing what it does. */
  function spy(): [Phase, Entry][] {
    const seen: [Phase, Entry][] = [];
    for (const [phase, h] of Object.entries(saved) as [Phase, PhaseHandler][]) {
      HANDLERS[phase] = { enter: (step, entry) => (seen.push([phase, entry]), h.enter(step, entry)), on: h.on };
    }
    return seen;
  }

  test("the first start is fresh, a move is fresh via its event, a prepared resume is resumed, an unprepared one a retry", () => {
    const { state, ev, s } = reach("planning");
    const seen = spy();
    const planned = apply(state, ev.plan(STD_PLAN), s);
    expect(seen).toEqual([["implementing", { reason: "fresh", via: "plan_written" }]]);
    seen.length = 0;
    apply(prepareResume(planned.state, FACTS, "2024-01-02T00:00:00.000Z"), ev.resume(), s);
    expect(seen).toEqual([["implementing", { reason: "resumed" }]]);
    seen.length = 0;
    apply(planned.state, ev.resume(), s);
    expect(seen).toEqual([["implementing", { reason: "retry", via: "plan_written" }]]);
    seen.length = 0;
    apply(freshState(), ev.start(), s);
    expect(seen).toEqual([["architecting", { reason: "fresh", via: "feature_created" }]]);
  });
});

describe("a state machine bug", () => {
  /** reviewing and fixing enter each other forever */
  function loop(): void {
    HANDLERS.reviewing = { ...saved.reviewing, enter: (step) => step.moveTo("fixing", "review_failed") };
    HANDLERS.fixing = { ...saved.fixing, enter: (step) => step.moveTo("reviewing", "implementation_completed") };
  }

  test("the hop limit throws HopLimit naming the path instead of stopping silently", () => {
    const { state, ev, s } = reach("fixing");
    loop();
    let err: unknown;
    try {
      transition(state, ev.done(1), s);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HopLimit);
    const path = (err as InstanceType<typeof HopLimit>).data.path;
    expect(path.length).toBe(MAX_HOPS + 2);
    expect(path.slice(0, 4)).toEqual(["fixing", "reviewing", "fixing", "reviewing"]);
  });

  test("the orchestrator's settings fail the run on a bug; the tests' settings throw", () => {
    expect(settingsFrom(Config.parse(parseConfigText(BUILTIN_CONFIG_TEXT, BUILTIN_FILE))).on_bug).toBe("fail_run");
    expect(settings().on_bug).toBeUndefined();
  });

  test("in the orchestrator (on_bug: fail_run) an illegal move or the hop limit fails the run with the bug as its cause", () => {
    const { state, ev } = reach("designing");
    const s = settings({ on_bug: "fail_run" });
    HANDLERS.designing = { ...saved.designing, on: (step) => (step.moveTo("done", "approval_received"), true) };
    const r = transition(state, ev.design(), s);
    expect(r.state).toMatchObject({ phase: "failed", last_event: "run_failed", interruption_category: "failed" });
    expect(r.state.interruption_cause).toBe(
      "internal error on event design_written: the move designing → done (approval_received) is not an allowed phase move (a bug in agentmux)",
    );
    expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code: 1, cleanup: false }]);
    // the event's own effects are dropped: only the log line and the finish
    expect(r.effects.map((e) => e.type)).toEqual(["log", "finish"]);
    // with the default (tests) it throws
    expect(() => transition(state, ev.design(), settings())).toThrow(IllegalMove);

    Object.assign(HANDLERS, saved);
    const fixing = reach("fixing");
    loop();
    const failed = transition(fixing.state, fixing.ev.done(1), s).state;
    expect(failed).toMatchObject({ phase: "failed", review_iteration: fixing.state.review_iteration });
    expect(failed.interruption_cause).toMatch(
      /^internal error on event coder_done: the event coder_done moved the run through 22 phases without settling \(fixing → reviewing → fixing/,
    );
  });
});

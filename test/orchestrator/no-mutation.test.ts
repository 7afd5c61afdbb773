import { describe, expect, test } from "bun:test";
import { transition } from "../../src/orchestrator/transition.ts";
import type { Event } from "../../src/schema/events.ts";
import type { State } from "../../src/schema/state.ts";
import { randomRun } from "./random-run.ts";

// A transition writes into the copy of the state it made at its first change (Step), never into
// the state it was given; the state it returns is then the caller's own (Result), which the
// orchestrator's loop writes its bookkeeping into. Both hold on every event of random runs.

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** Every object reachable from `v`. */
function reachable(v: unknown, out = new Set<object>()): Set<object> {
  if (v && typeof v === "object" && !out.has(v)) {
    out.add(v);
    for (const x of Object.values(v)) reachable(x, out);
  }
  return out;
}

describe("transitions never write the state they are given", () => {
  for (const seed of Array.from({ length: 25 }, (_, i) => 11 + i * 104_729)) {
    test(`seed ${seed}`, () => {
      const r = randomRun(seed);
      let state: State = r.initial;
      let changed = 0;
      for (const event of r.events) {
        const before = JSON.stringify(state);
        // a frozen input: any write to it, or to anything it holds, throws (modules are strict)
        const next = transition(deepFreeze(state), deepFreeze(event) as Event, r.settings).state;
        expect(JSON.stringify(state)).toBe(before);
        if (next !== state) {
          changed++;
          // the new state is not the input nor frozen: the caller may add its bookkeeping
          expect(Object.isFrozen(next)).toBe(false);
          expect(reachable(state).has(next)).toBe(false);
        }
        state = next === state ? { ...state } : next;
        state.tool_cursor = (state.tool_cursor ?? 0) + 1;
      }
      expect(changed).toBeGreaterThan(r.events.length / 2);
      expect(state.phase).toBe("done");
    });
  }
});

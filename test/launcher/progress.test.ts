import { expect, test } from "bun:test";
import { ProgressPrinter } from "../../src/launcher/progress.ts";
import { apply } from "../orchestrator/fixtures.ts";
import { reach } from "../orchestrator/reach.ts";

const decisions = (lines: string[]) => lines.map((l) => JSON.parse(l)).filter((e) => e.kind === "awaiting_decision");

test("a wait for a decision that was decided before the next poll is still announced, once", () => {
  const { state, ev, s } = reach("completing");
  const decided = apply(state, ev.approve(), s).state; // the printer never saw awaiting_decision: true
  expect(decided.awaiting_decision).toBeUndefined();
  const out: string[] = [];
  const p = new ProgressPrinter("/nonexistent", "json", (l) => out.push(l));
  p.replay(decided);
  p.replay(decided);
  expect(decisions(out)).toHaveLength(1);
  expect(decisions(out)[0].approval).toEndWith("08_completion/approval.json");
});

test("a resumed run announces only the waits after the state it resumed from", () => {
  const { state } = reach("completing");
  const out: string[] = [];
  const p = new ProgressPrinter("/nonexistent", "json", (l) => out.push(l), undefined, state.decision_waits);
  p.replay(state);
  expect(decisions(out)).toHaveLength(0);
  p.replay({ ...state, decision_waits: (state.decision_waits ?? 0) + 1 });
  expect(decisions(out)).toHaveLength(1);
});

test("a state without the count (an older session) is announced on the flag's rising edge", () => {
  const { state } = reach("completing");
  const { decision_waits: _, ...old } = state;
  const out: string[] = [];
  const p = new ProgressPrinter("/nonexistent", "json", (l) => out.push(l));
  p.replay(old);
  p.replay(old);
  p.replay({ ...old, awaiting_decision: undefined });
  p.replay(old);
  expect(decisions(out)).toHaveLength(2);
});

test("plain: each reviewer's verdict once with its round, a budget reached once; json: every line is a run API event", async () => {
  const { RunEvent } = await import("../../src/schema/run-api/event.ts");
  const { state, ev, s } = reach("reviewing");
  const failed = apply(state, ev.review("reviewer_logic", "fail"), s).state;
  const both = apply(failed, ev.review("reviewer_quality", "pass"), s).state;
  const budget = { ...both, budget_reached: { at: both.updated_at, text: "$5.00 of $5.00", paused: true } };
  const wentOn = { ...budget, budget_reached: { ...budget.budget_reached, paused: false } };
  const ended = { ...wentOn, phase: "failed" as const };
  const plain: string[] = [];
  const json: string[] = [];
  for (const [mode, out] of [
    ["plain", plain],
    ["json", json],
  ] as const) {
    const p = new ProgressPrinter("/nonexistent", mode, (l) => out.push(l));
    for (const st of [state, failed, failed, both, budget, budget, wentOn, ended]) p.replay(st);
  }
  expect(plain.filter((l) => l.includes("reviewer logic (review round 1): fail"))).toHaveLength(1);
  expect(plain.filter((l) => l.includes("reviewer quality (review round 1): pass"))).toHaveLength(1);
  expect(plain.filter((l) => l.includes("budget reached: $5.00 of $5.00; the agents are paused"))).toHaveLength(1);
  const events = json.map((l) => RunEvent.parse(JSON.parse(l)));
  expect(events.filter((e) => e.kind === "review_verdict")).toHaveLength(2);
  expect(events.filter((e) => e.kind === "budget_reached")).toHaveLength(1);
});

test("a reviewer's verdict is printed before the review outcome it made, in one poll and in a replay from nothing", () => {
  const { state, ev, s } = reach("reviewing");
  const one = apply(state, ev.review("reviewer_logic", "pass"), s).state;
  const both = apply(one, ev.review("reviewer_quality", "pass"), s).state;
  expect(both.history?.at(-1)?.event).toBe("review_passed");
  const verdictBeforeOutcome = (lines: string[]) => {
    const verdict = lines.findIndex((l) => l.includes("reviewer quality (review round 1): pass"));
    const outcome = lines.findIndex((l) => / review passed$/.test(l));
    expect(verdict).toBeGreaterThan(-1);
    expect(outcome).toBeGreaterThan(verdict);
  };
  const polled: string[] = [];
  const p = new ProgressPrinter("/nonexistent", "plain", (l) => polled.push(l));
  for (const st of [state, one, both]) p.replay(st);
  verdictBeforeOutcome(polled);
  const replayed: string[] = [];
  new ProgressPrinter("/nonexistent", "plain", (l) => replayed.push(l)).replay(both);
  verdictBeforeOutcome(replayed);
});

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

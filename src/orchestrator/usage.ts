import type { Event } from "../schema/events.ts";
import { totalOf } from "../schema/usage.ts";
import type { Step } from "./step.ts";

type UsageEvent = Extract<Event, { type: "usage_read" }>;

export const usd = (n: number) => `$${n < 10 ? n.toFixed(2) : n.toFixed(0)}`;
const tokens = (n: number) => (n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

/**
 * A conversation's figures are facts: recorded in any phase, a finished run's too (its last
 * turns are read after the run ends). At the run's budget a headless run fails with the figure;
 * otherwise the user is told once, and the agents go on only if the user lets them.
 */
export function recordUsage(step: Step, event: UsageEvent, live: boolean): void {
  const usage = { ...(step.state.usage ?? {}), [event.conversation]: event.record };
  step.set({ usage });
  const limits = step.settings.limits;
  if (!live || !limits || step.state.budget_reached) return;
  const total = totalOf(Object.values(usage));
  const over =
    limits.max_cost_usd !== null && total.cost_usd >= limits.max_cost_usd
      ? `the run has used an estimated ${usd(total.cost_usd)} of its ${usd(limits.max_cost_usd)} budget (limits.max_cost_usd)`
      : limits.max_tokens !== null && total.tokens >= limits.max_tokens
        ? `the run has used ${tokens(total.tokens)} tokens (${total.tokens}) of its ${tokens(limits.max_tokens)} budget (limits.max_tokens)`
        : null;
  if (!over) return;
  step.log("budget", `budget reached: ${over}`, { data: { over } });
  if (step.settings.headless) {
    step.set({ budget_reached: { at: event.at, text: over } });
    return step.fail(`budget reached: ${over}`);
  }
  step.set({ budget_reached: { at: event.at, text: over, paused: true } });
  pauseAndAsk(step, over);
}

/** Stop the agents and ask the user whether the run goes on past its budget. */
function pauseAndAsk(step: Step, over: string): void {
  step.emit({ type: "pause_agents", pause: true });
  step.emit({ type: "attention", text: `budget reached, agents paused — ${over}. In the monitor: g goes on, c cancels.` });
}

/** The user lets a run paused at its budget go on: the agents continue; the budget is not checked again. */
export function goOn(step: Step): void {
  if (!step.state.budget_reached?.paused) return step.log("ignored", "budget_go_on ignored: the run is not paused", { data: { event: "budget_go_on" } });
  step.set({ budget_reached: { ...step.state.budget_reached, paused: false } });
  step.emit({ type: "pause_agents", pause: false });
  step.log("budget", "the user lets the run go on past its budget", { data: { go_on: true } });
}

/**
 * A run resumed while paused at its budget stays paused: the agents it relaunches wait for the
 * go-on, and the user is asked again. Headless, nobody can answer: the run fails with the figure
 * and says how to go on. Returns false when the run failed.
 */
export function resumeBudgetPause(step: Step): boolean {
  const reached = step.state.budget_reached;
  if (!reached?.paused) return true;
  if (step.settings.headless) {
    step.set({ budget_reached: { ...reached, paused: false } });
    step.fail(`budget reached: ${reached.text} (the run was paused there; to go on, resume it without --ci and press g in the monitor)`);
    return false;
  }
  pauseAndAsk(step, reached.text);
  return true;
}

/** Before a paused run ends, its agents continue: a stopped process would not see the hang-up that ends it. */
export function unpauseBeforeEnd(step: Step): void {
  if (step.state.budget_reached?.paused) {
    step.set({ budget_reached: { ...step.state.budget_reached, paused: false } });
    step.emit({ type: "pause_agents", pause: false });
  }
}

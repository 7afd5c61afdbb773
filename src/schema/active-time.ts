import type { State } from "./state.ts";

/**
 * How long a run has been active up to `endMs`: its earlier orchestrator lifetimes
 * (state.active_ms, added at each resume) plus the current one since state.active_since — the
 * idle time between a cancel and a resume is not counted. The one measure of a run's time:
 * the watchdog's run limit, the monitor's clock, `agentmux status` and the goodbye's Elapsed.
 * `sinceMs`: when the current lifetime began if the state does not say (a run not yet started).
 */
export function activeMs(state: Pick<State, "active_ms" | "active_since" | "created_at" | "history">, endMs: number, sinceMs?: number): number {
  const since = Date.parse(state.active_since ?? "") || sinceMs || Date.parse(state.created_at ?? "") || Date.parse(state.history?.[0]?.at ?? "") || endMs;
  return (state.active_ms ?? 0) + Math.max(0, endMs - since);
}

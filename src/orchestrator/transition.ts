import { phaseEnded, type Phase } from "../schema/catalog.ts";
import type { Event } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import { HopLimit, IllegalMark, IllegalMove } from "./errors.ts";
import { HANDLERS, RESEARCH_OWNER } from "./phases/index.ts";
import { handleAgentEvent } from "./agent-events.ts";
import { goOn, recordUsage, resumeBudgetPause, unpauseBeforeEnd } from "./usage.ts";
import { Step } from "./step.ts";
import { recordCheck, resumeChecks } from "./checks.ts";
import type { Entry, Result, Settings } from "./types.ts";

const HANDLER_NAMES: Record<string, string> = {
  product_management: "ProductManagementHandler",
  architecting: "ArchitectingHandler",
  planning: "PlanningHandler",
  designing: "DesigningHandler",
  implementing: "ImplementingHandler",
  reviewing: "ReviewingHandler",
  fixing: "FixingHandler",
  completing: "CompletingHandler",
  done: "pipeline",
  failed: "pipeline",
};

/** More moves in one transition than any real path has (the longest makes three): a loop. */
export const MAX_HOPS = 20;

function handleRuntime(step: Step, event: Event): boolean {
  switch (event.type) {
    case "budget_go_on":
      goOn(step);
      return true;
    case "cancel":
      unpauseBeforeEnd(step);
      step.fail(event.reason, "canceled");
      return true;
    case "timeout":
      step.fail(event.reason);
      return true;
    case "effect_failed":
      step.fail(`${event.effect} failed: ${event.error}`);
      return true;
    case "run_lost":
      step.fail(event.reason);
      return true;
    case "usage_read":
      recordUsage(step, event, true);
      return true;
    case "check_started":
      recordCheck(step, event);
      return true;
    case "check_finished":
      // the phase reacts to a check that counted (a verdict that waited for it, a reviewer told)
      if (recordCheck(step, event)) HANDLERS[step.state.phase].on(step, event);
      return true;
    case "tool_rejected":
      step.log("tool_rejected", `tool event ${event.tool} rejected: ${event.reason}`, { data: { tool: event.tool, reason: event.reason } });
      return true;
    default:
      return handleAgentEvent(step, event, RESEARCH_OWNER[step.state.phase]);
  }
}

/**
 * Why a start or resume event enters the current phase: `resumed` when the state was prepared
 * for a resume, `fresh` for the run's first start, else `retry` of the move in `last_event`.
 */
function entryOf(state: State, event: Event): Entry {
  if (state.last_event === "resumed") return { reason: "resumed" };
  if (event.type === "start" && state.last_event === "feature_created") return { reason: "fresh", via: "feature_created" };
  return { reason: "retry", via: state.last_event };
}

/**
 * The whole workflow as a pure function: state + event → next state + effects.
 * A phase change enters the next phase at once, within the same transition.
 */
export function transition(state: State, event: Event, settings: Settings): Result {
  try {
    return run(state, event, settings);
  } catch (e) {
    if (settings.on_bug !== "fail_run" || !(e instanceof IllegalMove || e instanceof IllegalMark || e instanceof HopLimit)) throw e;
    // the event's own changes are dropped: the run fails from the state before it
    const step = new Step(state, event.at, settings, "pipeline");
    step.log("bug", `state machine bug on event ${event.type}: ${e.name}: ${e.message}`, { data: { event: event.type, error: `${e.name}: ${e.message}` } });
    step.fail(`internal error on event ${event.type}: ${e.message} (a bug in agentmux)`);
    step.set({ updated_at: event.at, updated_by: "pipeline" });
    return { state: step.state, effects: step.effects };
  }
}

function run(state: State, event: Event, settings: Settings): Result {
  if (phaseEnded(state.phase)) {
    if (event.type !== "usage_read") return { state, effects: [] };
    // a finished run's last turns are read after it ended: figures are facts in any phase
    const step = new Step(state, event.at, settings, "pipeline");
    recordUsage(step, event, false);
    return { state: step.state, effects: step.effects };
  }
  const step = new Step(state, event.at, settings, HANDLER_NAMES[state.phase] ?? "pipeline");
  const handler = HANDLERS[state.phase];
  if (event.type === "start" || event.type === "resume") {
    // the run's time limit counts the lifetimes of every orchestrator (see prepareResume)
    step.set({ active_since: event.at });
    // checks the last orchestrator left running (or never started) run again
    if (event.type === "resume") resumeChecks(step);
    if (event.type === "start" || resumeBudgetPause(step)) handler.enter(step, entryOf(state, event));
  } else if (!handleRuntime(step, event) && !handler.on(step, event)) {
    step.log("ignored", `event ${event.type} ignored in phase ${state.phase}`, { data: { event: event.type } });
  }
  // the phases this event moved through (most events move none: no array for them)
  let path: Phase[] | null = null;
  for (let move = step.advance(); move; move = step.advance()) {
    (path ??= [state.phase]).push(move.phase);
    if (path.length > MAX_HOPS + 1) throw new HopLimit({ event: event.type, path });
    HANDLERS[move.phase].enter(step, { reason: "fresh", via: move.event });
  }
  step.touch(HANDLER_NAMES[step.state.phase] ?? "pipeline");
  return { state: step.state, effects: step.effects };
}

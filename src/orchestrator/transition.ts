import type { Event } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import { HANDLERS, RESEARCH_OWNER } from "./phases/index.ts";
import { researcherCrashed } from "./research.ts";
import { Step } from "./step.ts";
import { sessionId } from "../session/paths.ts";
import type { Result, Settings } from "./types.ts";

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

/** End the run as failed (exit 1) or canceled (exit 130), keeping the session for `agentmux resume`. */
function fail(step: Step, category: "failed" | "canceled", cause: string): void {
  step.set({
    phase: "failed",
    last_event: category === "canceled" ? "run_canceled" : "run_failed",
    interruption_category: category,
    interruption_cause: cause.replace(/\s+/g, " ").trim(),
    interruption_resume_command: `agentmux resume ${sessionId(step.state.feature_dir)}`,
    interruption_log_path: `${step.state.feature_dir}/orchestrator.log`,
    history: [...(step.state.history ?? []), { phase: "failed", event: category === "canceled" ? "run_canceled" : "run_failed", at: step.at }],
  });
  step.goto = null;
  step.emit({ type: "finish", code: category === "canceled" ? 130 : 1, cleanup: false });
}

function handleRuntime(step: Step, event: Event): boolean {
  switch (event.type) {
    case "cancel":
      fail(step, "canceled", event.reason);
      return true;
    case "timeout":
      fail(step, "failed", event.reason);
      return true;
    case "effect_failed":
      fail(step, "failed", `${event.effect} failed: ${event.error}`);
      return true;
    case "tool_rejected":
      step.log(`tool event ${event.tool} rejected: ${event.reason}`);
      return true;
    case "agent_stuck": {
      const a = step.agents()[event.agent];
      if (a && a.status !== "done" && a.status !== "exited") step.setAgent(event.agent, { status: "stuck", note: event.reason });
      return true;
    }
    case "agent_active": {
      const a = step.agents()[event.agent];
      if (a && (a.status === "starting" || a.status === "stuck")) step.setAgent(event.agent, { status: "working", note: undefined });
      return true;
    }
    case "pane_exited": {
      const a = step.agents()[event.agent];
      if (!a || a.status === "done" || a.status === "exited") return true;
      if (a.role === "code-researcher" || a.role === "web-researcher") {
        researcherCrashed(step, event.agent, RESEARCH_OWNER[step.state.phase]);
        return true;
      }
      step.setAgent(event.agent, { status: "exited", note: event.detail });
      fail(step, "canceled", `the ${a.label} pane closed while the run was ${step.state.phase}${event.detail ? ` (${event.detail})` : ""}`);
      return true;
    }
    default:
      return false;
  }
}

/**
 * The whole workflow as a pure function: state + event → next state + effects.
 * A phase change enters the next phase at once, within the same transition.
 */
export function transition(state: State, event: Event, settings: Settings): Result {
  if (state.phase === "done" || state.phase === "failed") return { state, effects: [] };
  const step = new Step(state, event.at, settings, HANDLER_NAMES[state.phase] ?? "pipeline");
  const handler = HANDLERS[state.phase];
  if (event.type === "start" || event.type === "resume") handler.enter(step);
  else if (!handleRuntime(step, event) && !handler.on(step, event)) {
    step.log(`event ${event.type} ignored in phase ${state.phase}`);
  }
  for (let hops = 0; step.goto && hops < 20; hops++) {
    const { phase, event: last } = step.goto;
    step.goto = null;
    if (phase === "failed") {
      fail(step, "failed", step.state.interruption_cause ?? "the run failed");
      break;
    }
    step.set({ phase, last_event: last, history: [...(step.state.history ?? []), { phase, event: last, at: step.at }] });
    HANDLERS[phase].enter(step);
  }
  step.set({ updated_at: event.at, updated_by: HANDLER_NAMES[step.state.phase] ?? "pipeline" });
  return { state: step.state, effects: step.effects };
}

import type { Phase } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";
import { Step } from "./step.ts";

/** What exists on disk, gathered by the caller (this module stays pure). */
export type ResumeFacts = {
  pmDone: boolean;
  hasArchitecture: boolean;
  hasExecutionPlan: boolean;
  hasDesign: boolean;
  /** the last orchestrator's last sign of life (its heartbeat), ISO; a killed one wrote no state at the end */
  lastAliveAt?: string;
};

const ORDER: Phase[] = ["product_management", "architecting", "planning", "designing", "implementing", "reviewing", "fixing", "completing"];

function incomplete(phase: Phase, state: State, f: ResumeFacts): boolean {
  switch (phase) {
    case "product_management":
      return state.product_manager && !f.pmDone && !f.hasArchitecture;
    case "architecting":
      return !f.hasArchitecture;
    case "planning":
      return !f.hasExecutionPlan || !state.execution_groups?.length;
    case "designing":
      return state.needs_design === true && !f.hasDesign;
    default:
      return false;
  }
}

/**
 * The phase a session resumes in. A live phase resumes as is; a failed run resumes in the phase
 * it failed in, moved back to the first earlier phase whose artifacts are missing.
 */
export function inferResumePhase(state: State, facts: ResumeFacts): Phase {
  if (state.phase !== "failed") return state.phase;
  const before = [...(state.history ?? [])].reverse().find((h) => h.phase !== "failed")?.phase ?? "architecting";
  const target = before === "done" ? "completing" : before;
  const limit = ORDER.indexOf(target);
  for (const phase of ORDER.slice(0, limit < 0 ? ORDER.length : limit)) {
    if (phase === "product_management" && !state.product_manager) continue;
    if (incomplete(phase, state, facts)) return phase;
  }
  return target;
}

/** The state a resumed orchestrator starts from. */
export function prepareResume(state: State, facts: ResumeFacts, at: string): State {
  const phase = inferResumePhase(state, facts);
  const {
    interruption_category: _c,
    interruption_cause: _x,
    interruption_resume_command: _r,
    interruption_log_path: _l,
    ...rest
  } = state;
  // agents that had not finished were interrupted: relaunched, they continue their CLI
  // conversation and their prompt says what changed since the run's base
  const agents = Object.fromEntries(
    Object.entries(state.agents ?? {}).map(([k, a]) => [k, a.status === "done" ? a : { ...a, status: "exited" as const, since: at, interrupted: true }]),
  );
  // the run's time limit counts every orchestrator lifetime: the last one ended at its last
  // update or its last heartbeat, whichever came later
  const ended = Math.max(Date.parse(state.updated_at), Date.parse(facts.lastAliveAt ?? "") || 0);
  const lived = ended - Date.parse(state.active_since ?? state.created_at ?? state.updated_at);
  const active_ms = (state.active_ms ?? 0) + (Number.isFinite(lived) && lived > 0 ? lived : 0);
  // the new lifetime begins now (the orchestrator's resume event sets it again when it starts):
  // kept, the old active_since would count the idle time and the earlier lifetime once more
  return Step.resumed({ ...rest, active_ms, active_since: at, agents, updated_at: at, updated_by: "pipeline" }, phase, at);
}

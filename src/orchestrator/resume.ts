import type { Plan } from "../schema/artifacts/plan.ts";
import type { Phase } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";
import { planStateFields } from "./plan-files.ts";
import { Step } from "./step.ts";

/** What exists on disk, gathered by the caller (this module stays pure). */
export type ResumeFacts = {
  pmDone: boolean;
  hasArchitecture: boolean;
  hasExecutionPlan: boolean;
  hasDesign: boolean;
  /** 04_planning/plan.yaml when it is valid: the groups of a state that never recorded them */
  plan?: Plan;
  /** N of each 06_implementation/done_N marker */
  doneMarkers?: number[];
  /** 07_review/review.md or a review_<role>.yaml exists */
  hasReview?: boolean;
  /** 07_review/fix_request.md exists */
  hasFixRequest?: boolean;
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
      return !f.hasExecutionPlan || !(state.execution_groups?.length || f.plan);
    case "designing":
      return (state.needs_design ?? f.plan?.needs_design) === true && !f.hasDesign;
    default:
      return false;
  }
}

/**
 * How far the artifacts say a run got past planning, for a state with no history (the Python
 * agentmux writes none; inventory §9.3): every plan has its done marker, a review was written, a
 * fix round's fixer finished (done_1 again).
 */
function incompleteForward(phase: Phase, state: State, f: ResumeFacts): boolean {
  const fixRound = state.review_iteration > 0 && f.hasFixRequest === true;
  const done = new Set([...(f.doneMarkers ?? []), ...state.completed_subplans.map(Number)]);
  switch (phase) {
    case "implementing": {
      const groups = state.execution_groups ?? (f.plan ? planStateFields(f.plan).execution_groups : undefined) ?? [];
      const plans = groups.flatMap((g) => g.plans.map((p) => p.index));
      return !fixRound && plans.some((n) => !done.has(n));
    }
    case "reviewing":
      return fixRound ? (f.doneMarkers ?? []).includes(1) : !f.hasReview;
    case "fixing":
      return fixRound && !(f.doneMarkers ?? []).includes(1);
    default:
      return incomplete(phase, state, f);
  }
}

/**
 * The phase a session resumes in. A live phase resumes as is; a failed run resumes in the phase
 * it failed in, moved back to the first earlier phase whose artifacts are missing. A failed run
 * with no history is inferred forward: the first phase whose artifacts are missing, else completing.
 */
export function inferResumePhase(state: State, facts: ResumeFacts): Phase {
  if (state.phase !== "failed") return state.phase;
  const before = [...(state.history ?? [])].reverse().find((h) => h.phase !== "failed")?.phase;
  const target = before === undefined || before === "done" ? "completing" : before;
  const check = before === undefined ? incompleteForward : incomplete;
  const limit = ORDER.indexOf(target);
  for (const phase of ORDER.slice(0, limit < 0 ? ORDER.length : limit)) {
    if (phase === "product_management" && !state.product_manager) continue;
    if (check(phase, state, facts)) return phase;
  }
  return target;
}

/**
 * A state that resumes past planning without the plan's groups (one that never recorded them)
 * takes them from plan.yaml, and the plans whose done markers exist count as completed.
 */
function withPlan(state: State, phase: Phase, facts: ResumeFacts): State {
  if (state.execution_groups?.length || !facts.plan || ORDER.indexOf(phase) <= ORDER.indexOf("planning")) return state;
  const done = [...new Set([...state.completed_subplans, ...(facts.doneMarkers ?? []).map(String)])].sort();
  return { ...state, ...planStateFields(facts.plan), completed_subplans: done };
}

/** The state a resumed orchestrator starts from. */
export function prepareResume(state: State, facts: ResumeFacts, at: string): State {
  const phase = inferResumePhase(state, facts);
  state = withPlan(state, phase, facts);
  const { interruption_category: _c, interruption_cause: _x, interruption_resume_command: _r, interruption_log_path: _l, ...rest } = state;
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

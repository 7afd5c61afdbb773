import type { Effect } from "../schema/effects.ts";
import type { Event } from "../schema/events.ts";
import type { Phase, WorkflowEvent } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";
import type { CheckPlan } from "../schema/check-runs.ts";
import type { Step } from "./step.ts";

/** Workflow settings resolved from config once, passed into every transition. */
export type Settings = {
  max_review_iterations: number;
  skip_final_approval: boolean;
  /** at the review loop cap with failing reviews and nobody to approve: commit anyway (else the run fails) */
  commit_on_loop_cap: boolean;
  single_coder: boolean;
  keep_session: boolean;
  /** role → provider/model, shown in the agents list; `fallback`: providers for usage limits */
  role_agents: Record<string, { provider: string; model: string | null; fallback?: string[] }>;
  /**
   * What a state-machine bug (an illegal move, the hop limit) does: throw (the default, so tests
   * see it), or fail the run with the bug as its cause (the orchestrator process).
   */
  on_bug?: "throw" | "fail_run";
  /** started headless: nobody answers questions or dialogs, a stuck agent fails the run */
  headless?: boolean;
  /** reminders to an agent whose turn ended without its submit (watchdog.nudges) */
  nudges?: number;
  /** wait before the second reminder, doubling for each further one (ms) */
  nudge_backoff_ms?: number;
  /** restarts of an agent whose pane exited unexpectedly (watchdog.restarts) */
  restarts?: number;
  /** a per-run budget (limits.max_cost_usd / max_tokens) */
  limits?: { max_cost_usd: number | null; max_tokens: number | null };
  /** the project's checks (config `checks:`): name → when it runs and whether it blocks */
  checks?: CheckPlan;
  /**
   * `with_reviewers`: the checks of a round run while the reviewers read (the verdict waits for
   * both); `before_reviewers`: reviewers start once the checks passed, a failing check goes
   * straight to the fixer
   */
  checks_order?: "with_reviewers" | "before_reviewers";
  /** headless: what a question gets (headless.questions) */
  questions?: "decide" | "fail";
};

/**
 * A transition's outcome. `state` is the state given to the transition when the event changed
 * nothing, else a new object that nobody else holds: the caller may add its own bookkeeping to
 * it (the tool cursor and seq, the outbox) without another copy of the whole state.
 */
export type Result = { state: State; effects: Effect[] };

/** What a phase handler asks for besides state and effects: a move to another phase. */
export type Goto = { phase: Phase; event: WorkflowEvent };

/**
 * Why a phase is entered:
 * - `fresh`: a move into the phase (`via` is the move's workflow event), or the run's start
 *   (`via` is `feature_created`): the phase starts its work;
 * - `resumed`: the orchestrator restarted in the phase (`agentmux resume`, after a crash or a
 *   failure): the phase goes on with the work in flight, keeping what is finished;
 * - `retry`: a start or resume event in a phase whose state was not prepared for a resume: the
 *   entry of the move recorded in `last_event` (`via`) runs again (entry effects are idempotent).
 */
export type Entry = { reason: "fresh"; via: WorkflowEvent } | { reason: "resumed" } | { reason: "retry"; via: WorkflowEvent };

/** The workflow event that brought the run into the phase, or null when it was resumed. */
export const via = (entry: Entry): WorkflowEvent | null => (entry.reason === "resumed" ? null : entry.via);

export type PhaseHandler = {
  /** entering the phase, for the given reason */
  enter(step: Step, entry: Entry): void;
  /** an event while in this phase; return false when the phase does not handle it */
  on(step: Step, event: Event): boolean;
};

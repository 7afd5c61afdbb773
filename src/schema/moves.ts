import { PHASES, type Phase, type WorkflowEvent } from "./catalog.ts";

/**
 * One allowed phase move: the run goes from `from` to `to`, and `event` becomes state.json's
 * `last_event` (and a history entry). `when` says what causes it, for the protocol doc.
 */
export type PhaseMove = { from: Phase; to: Phase; event: WorkflowEvent; when: string };

/** The phases a run works in (every phase but the final `done` and `failed`). */
export const LIVE_PHASES = PHASES.filter((p): p is Exclude<Phase, "done" | "failed"> => p !== "done" && p !== "failed");

/** Where a new run starts (`last_event` is `feature_created`). */
export const START_PHASES: readonly { phase: Phase; when: string }[] = [
  { phase: "product_management", when: "with --product-manager" },
  { phase: "architecting", when: "otherwise" },
];

/**
 * The state machine as a graph: every move the orchestrator may make. `Step.moveTo` and
 * `Step.fail` refuse any move not listed here; docs/protocol.md draws its state diagram from it.
 */
export const PHASE_MOVES: readonly PhaseMove[] = [
  { from: "product_management", to: "architecting", event: "pm_completed", when: "submit_pm_done" },
  { from: "architecting", to: "planning", event: "architecture_written", when: "submit_architecture" },
  { from: "planning", to: "designing", event: "plan_written", when: "submit_plan, the plan needs design" },
  { from: "planning", to: "implementing", event: "plan_written", when: "submit_plan" },
  { from: "designing", to: "implementing", event: "design_written", when: "design.md written" },
  { from: "implementing", to: "reviewing", event: "implementation_completed", when: "every sub-plan's submit_done" },
  { from: "reviewing", to: "fixing", event: "review_failed", when: "a reviewer failed the change" },
  { from: "reviewing", to: "completing", event: "review_failed", when: "a reviewer failed it at the review loop cap" },
  { from: "reviewing", to: "completing", event: "review_passed", when: "every reviewer passed, summary.md written" },
  { from: "fixing", to: "reviewing", event: "implementation_completed", when: "the fixer's submit_done" },
  { from: "completing", to: "planning", event: "changes_requested", when: "changes.md written" },
  { from: "completing", to: "done", event: "approval_received", when: "approved and committed" },
  ...LIVE_PHASES.flatMap((from): PhaseMove[] => [
    { from, to: "failed", event: "run_failed", when: "an error, a limit or a failed commit" },
    { from, to: "failed", event: "run_canceled", when: "Ctrl-C, a cancel request or a closed agent pane" },
  ]),
];

/**
 * Workflow events recorded inside a phase, without a move: the reviewers all passed and the
 * run waits in `reviewing` for the summary.
 */
export const PHASE_MARKS: readonly { phase: Phase; event: WorkflowEvent; when: string }[] = [
  { phase: "reviewing", event: "review_passed", when: "every reviewer passed, the run waits for the summary" },
];

export const isPhaseMove = (from: Phase, to: Phase, event: WorkflowEvent): boolean =>
  PHASE_MOVES.some((m) => m.from === from && m.to === to && m.event === event);

export const isPhaseMark = (phase: Phase, event: WorkflowEvent): boolean => PHASE_MARKS.some((m) => m.phase === phase && m.event === event);

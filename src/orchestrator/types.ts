import type { Effect } from "../schema/effects.ts";
import type { Event } from "../schema/events.ts";
import type { Phase, WorkflowEvent } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";

/** Workflow settings resolved from config once, passed into every transition. */
export type Settings = {
  max_review_iterations: number;
  skip_final_approval: boolean;
  single_coder: boolean;
  keep_session: boolean;
  /** role → provider/model, shown in the agents list */
  role_agents: Record<string, { provider: string; model: string | null }>;
};

export type Result = { state: State; effects: Effect[] };

/** What a phase handler asks for besides state and effects: a move to another phase. */
export type Goto = { phase: Phase; event: WorkflowEvent };

export type PhaseHandler = {
  /** entering the phase (fresh, or re-entry after a restart when state.last_event is "resumed") */
  enter(step: import("./step.ts").Step): void;
  /** an event while in this phase; return false when the phase does not handle it */
  on(step: import("./step.ts").Step, event: Event): boolean;
};

import { defineError } from "../errors.ts";
import type { Phase, WorkflowEvent } from "../schema/catalog.ts";

const hint = "this is a bug in agentmux's state machine; the session is kept (see its orchestrator.log)";

/** A phase asked for a move that src/schema/moves.ts does not allow. */
export const IllegalMove = defineError("IllegalMove", "internal", (d: { from: Phase; to: Phase; event: WorkflowEvent }) => ({
  message: `the move ${d.from} → ${d.to} (${d.event}) is not an allowed phase move`,
  hint,
}));

/** A workflow event recorded in a phase where src/schema/moves.ts does not list it. */
export const IllegalMark = defineError("IllegalMark", "internal", (d: { phase: Phase; event: WorkflowEvent }) => ({
  message: `the workflow event ${d.event} cannot be recorded in phase ${d.phase}`,
  hint,
}));

/** One event made the phases move into each other more often than any real path needs: a loop. */
export const HopLimit = defineError("HopLimit", "internal", (d: { event: string; path: Phase[] }) => ({
  message: `the event ${d.event} moved the run through ${d.path.length} phases without settling (${d.path.join(" → ")})`,
  hint,
}));

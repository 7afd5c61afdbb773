import { parallelCoderIndex, ROLE_TOOLS, TOOL_PHASES, type ToolName, phaseEnded } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";
import type { AgentIdentity } from "./identity.ts";

/** A tool call either goes ahead, or is refused with a message for the agent. */
export type Gate = { ok: true } | { ok: false; message: string };

const NOTHING = "Nothing was recorded.";

/**
 * Refuses calls this agent may not make: tools outside its role (the role comes from the
 * token, i.e. from the orchestrator's launch record), tools not served to it, and tools called
 * while the run's phase does not accept them — so an event is never consumed in the wrong phase.
 * The state is the orchestrator's own (in memory), not state.json as an agent might have edited it.
 */
export function admitCall(who: AgentIdentity, tool: ToolName, input: object, state: State): Gate {
  if (!ROLE_TOOLS[who.role].includes(tool)) {
    const own = ROLE_TOOLS[who.role];
    return {
      ok: false,
      message: `${tool} is not allowed for the ${who.role} role. ${own.length ? `The ${who.role} may call: ${own.join(", ")}.` : `The ${who.role} has no agentmux tools.`} ${NOTHING}`,
    };
  }
  if (!who.tools.includes(tool)) {
    return { ok: false, message: `${tool} is not enabled for this agent (enabled: ${who.tools.join(", ") || "none"}). ${NOTHING}` };
  }
  const phases = TOOL_PHASES[tool];
  if (!phases.includes(state.phase)) {
    return {
      ok: false,
      message:
        `${tool} was refused: the pipeline is in the "${state.phase}" phase, and ${tool} is only accepted during ${phases.join(" or ")}. ${NOTHING} ` +
        (phaseEnded(state.phase)
          ? "The run has ended; stop working."
          : "If your task is finished, stop and wait — agentmux will send you a new prompt when it needs you."),
    };
  }
  if (tool === "submit_done" && state.phase === "implementing") {
    const index = String("subplan_index" in input ? input.subplan_index : "");
    const active = state.implementation_active_plan_ids;
    if (!active.includes(index)) {
      return {
        ok: false,
        message: `submit_done was refused: subplan ${index} is not being implemented right now (active: ${active.join(", ") || "none"}). ${NOTHING} Use the subplan index from your coder prompt.`,
      };
    }
    // a parallel coder reports its own sub-plan: another's would end that coder's work mid-way
    const own = parallelCoderIndex(who.agent);
    if (own !== null && String(own) !== index) {
      return {
        ok: false,
        message: `submit_done was refused: you are ${who.agent}, the coder of subplan ${own}; subplan ${index} has its own coder. ${NOTHING} Submit your own work with subplan_index ${own}.`,
      };
    }
  }
  return { ok: true };
}

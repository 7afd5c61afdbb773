import { join } from "node:path";
import { readArtifact } from "../artifacts/parse.ts";
import { formatProblem } from "../artifacts/problems.ts";
import { ROLE_TOOLS, TOOL_PHASES, type ToolName } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";
import { F } from "../session/paths.ts";
import type { McpEnv } from "./env.ts";

/** A tool call either goes ahead with the session state, or is refused with a message for the agent. */
export type Gate = { ok: true; state: State } | { ok: false; message: string };

const NOTHING = "Nothing was recorded.";

/**
 * Refuses calls this agent may not make: tools not served to it, tools outside its role, and
 * tools called while state.json's phase does not accept them — so an event is never consumed
 * in the wrong phase.
 */
export async function admitCall(env: McpEnv, tool: ToolName, input: Record<string, unknown>): Promise<Gate> {
  if (env.role && !ROLE_TOOLS[env.role].includes(tool)) {
    const own = ROLE_TOOLS[env.role];
    return {
      ok: false,
      message: `${tool} is not allowed for the ${env.role} role. ${own.length ? `The ${env.role} may call: ${own.join(", ")}.` : `The ${env.role} has no agentmux tools.`} ${NOTHING}`,
    };
  }
  if (!env.tools.includes(tool)) {
    return { ok: false, message: `${tool} is not enabled for this agent (enabled: ${env.tools.join(", ") || "none"}). ${NOTHING}` };
  }
  const read = await readArtifact("state", join(env.sessionDir, F.state));
  if (!read.ok) {
    return {
      ok: false,
      message: `${tool} cannot run: the session state ${join(env.sessionDir, F.state)} is unreadable (${read.problems.map(formatProblem).join("; ")}). ${NOTHING} Wait a moment and call again.`,
    };
  }
  const state = read.value;
  const phases = TOOL_PHASES[tool];
  if (!phases.includes(state.phase)) {
    return {
      ok: false,
      message:
        `${tool} was refused: the pipeline is in the "${state.phase}" phase, and ${tool} is only accepted during ${phases.join(" or ")}. ${NOTHING} ` +
        (state.phase === "done" || state.phase === "failed"
          ? "The run has ended; stop working."
          : "If your task is finished, stop and wait — agentmux will send you a new prompt when it needs you."),
    };
  }
  if (tool === "submit_done" && state.phase === "implementing") {
    const index = String(input.subplan_index);
    const active = state.implementation_active_plan_ids;
    if (!active.includes(index)) {
      return {
        ok: false,
        message: `submit_done was refused: subplan ${index} is not being implemented right now (active: ${active.join(", ") || "none"}). ${NOTHING} Use the subplan index from your coder prompt.`,
      };
    }
  }
  return { ok: true, state };
}

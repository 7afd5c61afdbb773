import { formatProblem } from "../artifacts/problems.ts";
import type { Event } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import { doneArtifact } from "../protocol/paths.ts";

/**
 * A sealed submit_done line is about to be applied: its gate is checked again against the work
 * directory as it is now, with the run's state now. A seal proves the line was written by someone
 * holding the run's key, not that the claims are true — a process that read the key could seal a
 * lying done file — and the files can have changed since the call was accepted. A coder_done whose
 * claims no longer hold becomes a `tool_rejected` naming every problem; the coder is reminded to
 * submit again as after any turn that ended without a submit.
 */
export async function regateDone(event: Event, o: { state: State; sessionDir: string; workDir: string }): Promise<Event> {
  if (event.type !== "coder_done" || !event.artifact) return event;
  // isomorphic-git is loaded only when a coder's work is applied
  const { doneGateProblems } = await import("../artifacts/done-gate.ts");
  const n = event.subplan_index;
  const problems = await doneGateProblems(event.artifact, { ...o, subplanIndex: n });
  if (!problems.length) return event;
  return {
    type: "tool_rejected",
    at: event.at,
    tool: "submit_done",
    reason: `subplan ${n}'s ${doneArtifact(n)} no longer passes the verification gate when its call is applied (the work directory does not hold what it claims): ${problems.map(formatProblem).join("; ")}`,
  };
}

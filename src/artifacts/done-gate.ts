import type { DoneArtifact } from "../schema/artifacts/done.ts";
import type { State } from "../schema/state.ts";
import { checkAddressed } from "./addressed.ts";
import { checkDoneArtifact } from "./gate.ts";
import type { Problem } from "./kinds.ts";

/**
 * The whole gate a coder's or fixer's done artifact passes, as the run's state decides it: the
 * verification gate (claims real in the work directory; PARTIAL only where the plan allows it,
 * never in a fix round) and, in a fix round or when comments are claimed addressed, the line
 * comments' check. Run when submit_done is called, and again when its line is applied (the files
 * can have changed in between, and a line can be sealed by whoever read the seal key).
 */
export async function doneGateProblems(done: DoneArtifact, o: { state: State; sessionDir: string; workDir: string; subplanIndex: number }): Promise<Problem[]> {
  const n = o.subplanIndex;
  const fixRound = o.state.phase === "fixing";
  const allowPartial = !fixRound && (o.state.execution_groups ?? []).some((g) => g.plans.some((p) => p.index === n && p.allow_partial === true));
  const problems = await checkDoneArtifact(done, { workDir: o.workDir, subplanIndex: n, allowPartial, fixRound });
  if (fixRound || done.comments_addressed?.length)
    problems.push(...checkAddressed(done.comments_addressed ?? [], { state: o.state, sessionDir: o.sessionDir, workDir: o.workDir }));
  return problems;
}

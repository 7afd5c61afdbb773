import { z } from "zod";

const relPath = z.string().trim().min(1, "must be a non-empty path");

/**
 * `06_implementation/done_<N>.json`: the coder's completion artifact
 * (seeds/agent-completion-artifacts-verification-gate.txt, builder format).
 * `submit_done` is refused unless it exists, parses, and its claims are real.
 */
export const DoneArtifact = z.object({
  subplan_index: z.number().int().min(1).optional(),
  agent: z.string().optional(),
  status: z
    .enum(["SUCCESS", "PARTIAL", "FAILED"])
    .describe("submit_done accepts SUCCESS; PARTIAL only when the sub-plan says allow_partial: true; FAILED never"),
  tasks_completed: z.array(z.string().trim().min(1)),
  files_created: z.array(relPath),
  files_modified: z.array(relPath),
  files_deleted: z.array(relPath).optional(),
  tests: z.strictObject({
    files: z.number().int().min(0),
    cases: z.number().int().min(0),
  }),
  issues_fixed: z.record(z.string(), z.number().int().min(0)).optional(),
  /** fix rounds: the ids of the line comments this round addressed (each one's file must have changed since the review) */
  comments_addressed: z.array(z.string().trim().min(1, "must be a comment id such as logic-1")).optional(),
  timestamp: z.string().optional(),
});
export type DoneArtifact = z.infer<typeof DoneArtifact>;

/**
 * Why the verification gate refuses a done artifact's status, or undefined when it may pass:
 * only finished work is recorded. FAILED never passes; PARTIAL only for a sub-plan whose entry
 * in plan.yaml says `allow_partial: true`. The text tells the coder what to do next.
 */
export function doneStatusRefusal(status: DoneArtifact["status"], o: { subplanIndex: number; allowPartial: boolean; fixRound?: boolean }): string | undefined {
  const blocked = "If something you cannot fix blocks you, do not call submit_done: say what blocks you and wait for the user.";
  const work = o.fixRound ? "Address every finding of 07_review/fix_request.md" : `Finish the tasks of plan ${o.subplanIndex}`;
  if (status === "FAILED") {
    return `is "FAILED": submit_done records finished work only. ${work} and make the tests pass, then set "status": "SUCCESS" and call submit_done again. ${blocked}`;
  }
  if (status === "PARTIAL" && !o.allowPartial) {
    const why = o.fixRound
      ? "a fix round must address every finding"
      : `plan ${o.subplanIndex} does not allow a partial result (its sub-plan in plan.yaml has no "allow_partial: true")`;
    return `is "PARTIAL", but ${why}. ${work}, then set "status": "SUCCESS" and call submit_done again. ${blocked}`;
  }
  return undefined;
}

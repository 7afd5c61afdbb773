import { roundComments } from "../../schema/state.ts";
import { F, commentBaseline } from "../../protocol/paths.ts";
import { markAddressed } from "../line-comments.ts";
import type { Step } from "../step.ts";
import { via, type PhaseHandler } from "../types.ts";
import { CODER, recordDone, refusedStatus } from "./implementing.ts";
import { startChecks } from "../checks.ts";

export const fixing: PhaseHandler = {
  enter(step, entry) {
    if (via(entry) === "review_failed") {
      step.emit({ type: "delete_matching", dir: "06_implementation", pattern: "^done_\\d+(\\.json)?$" });
    }
    // Always a fresh coder: the fix prompt carries everything it needs.
    step.killWhere((_k, a) => a.role === "coder");
    const round = step.state.review_iteration;
    // what the commented files look like before the fixer starts: an addressed comment's file must change
    const files = [...new Set(roundComments(step.state).map((c) => c.file))];
    if (files.length) step.emit({ type: "record_baseline", path: commentBaseline(round), round, files });
    const iteration = String(round);
    step.solo(CODER, "coder", `[coder] fix round ${iteration}`, { path: F.fixPrompt, template: "fix", vars: { review_iteration: iteration } }, "fix");
    step.set({ completed_subplans: [], implementation_active_plan_ids: ["1"] });
  },
  on(step, event) {
    if (event.type !== "coder_done") return false;
    if (event.subplan_index !== 1) {
      step.log("ignored", `submit_done for plan ${event.subplan_index} ignored while fixing (the fixer reports plan 1)`, {
        data: { event: event.type, plan: event.subplan_index },
      });
      return true;
    }
    // a fix round is never partial: every finding must be addressed
    if (refusedStatus(step, event, { allowPartial: false, agent: CODER, fixRound: true })) return true;
    recordDone(step, event);
    recordAddressed(step, event.artifact?.comments_addressed ?? []);
    step.kill(CODER);
    // the fixer is the round's one coder: its after_coder checks are the implementation's
    startChecks(step, "after_implementation", ["after_coder"]);
    step.moveTo("reviewing", "implementation_completed");
    return true;
  },
};

/** The line comments the fixer addressed (its artifact says so; submit_done checked their files changed). */
function recordAddressed(step: Step, ids: string[]): void {
  const round = step.state.review_iteration;
  const open = roundComments(step.state);
  if (!open.length) return;
  const { comments, marked } = markAddressed(step.state.review_comments ?? [], ids, round);
  if (marked.length) step.set({ review_comments: comments });
  const left = open.filter((c) => !marked.includes(c.id)).map((c) => c.id);
  step.log(
    "fix_round",
    `fix round ${round} addressed ${marked.length} of ${open.length} line comment(s)${marked.length ? ` (${marked.join(", ")})` : ""}${left.length ? `; not addressed: ${left.join(", ")}` : ""}`,
    {
      data: { round, addressed: marked, not_addressed: left },
    },
  );
}

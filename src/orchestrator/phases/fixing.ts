import { F } from "../../session/paths.ts";
import { via, type PhaseHandler } from "../types.ts";
import { CODER, recordDone, refusedStatus } from "./implementing.ts";

export const fixing: PhaseHandler = {
  enter(step, entry) {
    if (via(entry) === "review_failed") {
      step.emit({ type: "delete_matching", dir: "06_implementation", pattern: "^done_\\d+(\\.json)?$" });
    }
    // Always a fresh coder: the fix prompt carries everything it needs.
    step.killWhere((_k, a) => a.role === "coder");
    const iteration = String(step.state.review_iteration);
    step.solo(CODER, "coder", `[coder] fix ${iteration}`, { path: F.fixPrompt, template: "fix", vars: { review_iteration: iteration } }, "fix");
    step.set({ completed_subplans: [], implementation_active_plan_ids: ["1"] });
  },
  on(step, event) {
    if (event.type !== "coder_done") return false;
    if (event.subplan_index !== 1) {
      step.log(`submit_done for plan ${event.subplan_index} ignored while fixing (the fixer reports plan 1)`);
      return true;
    }
    // a fix round is never partial: every finding must be addressed
    if (refusedStatus(step, event, { allowPartial: false, agent: CODER, fixRound: true })) return true;
    recordDone(step, event);
    step.kill(CODER);
    step.moveTo("reviewing", "implementation_completed");
    return true;
  },
};

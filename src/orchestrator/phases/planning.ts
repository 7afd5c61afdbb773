import { F } from "../../protocol/paths.ts";
import { handleResearch, relaunchResearch } from "../research.ts";
import { materializePlan, planStateFields } from "../plan-files.ts";
import type { PhaseHandler } from "../types.ts";

export const PLANNER = "planner";

export const planning: PhaseHandler = {
  enter(step, entry) {
    // A change request is re-planned with the user's text inline; a resumed re-plan keeps it.
    const prompt = step.state.replanning === true ? { path: F.changesPrompt, template: "change" } : { path: F.plannerPrompt, template: "planner" };
    step.solo(PLANNER, "planner", "[planner] planning", prompt);
    if (entry.reason === "resumed") relaunchResearch(step);
  },
  on(step, event) {
    if (event.type === "plan_submitted") {
      const plan = event.plan;
      for (const file of materializePlan(plan)) step.emit({ type: "write_file", path: file.path, content: file.content });
      const keep = plan.subplans.map((s) => s.index).join("|");
      step.emit({ type: "delete_matching", dir: "04_planning", pattern: `^(plan|tasks)_(?!(${keep})\\.md$)\\d+\\.md$` });
      step.emit({ type: "delete_file", path: F.changes });
      step.kill(PLANNER);
      step.set({ ...planStateFields(plan), completed_subplans: [], replanning: false });
      step.moveTo(plan.needs_design ? "designing" : "implementing", "plan_written");
      return true;
    }
    return handleResearch(step, event, { agent: PLANNER, role: "planner" });
  },
};

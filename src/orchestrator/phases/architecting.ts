import { F } from "../../protocol/paths.ts";
import { handleResearch, relaunchResearch } from "../research.ts";
import type { PhaseHandler } from "../types.ts";

export const ARCHITECT = "architect";

export const architecting: PhaseHandler = {
  enter(step, entry) {
    step.solo(ARCHITECT, "architect", "[architect] architecture", { path: F.architectPrompt, template: "architect" });
    if (entry.reason === "resumed") relaunchResearch(step);
  },
  on(step, event) {
    if (event.type === "architecture_submitted") {
      step.emit({ type: "delete_file", path: F.changes });
      step.kill(ARCHITECT);
      if (event.reviewers && event.reviewers.length > 0) step.set({ reviewer_nominations: [...new Set(event.reviewers)] });
      step.moveTo("planning", "architecture_written");
      return true;
    }
    return handleResearch(step, event, { agent: ARCHITECT, role: "architect" });
  },
};

import { F } from "../../protocol/paths.ts";
import { handleResearch, relaunchResearch } from "../research.ts";
import type { PhaseHandler } from "../types.ts";

export const PM = "product-manager";

export const productManagement: PhaseHandler = {
  enter(step, entry) {
    step.solo(PM, "product-manager", "[product-manager] analysis", { path: F.pmPrompt, template: "product-manager" });
    if (entry.reason === "resumed") relaunchResearch(step);
  },
  on(step, event) {
    if (event.type === "pm_done") {
      step.kill(PM);
      step.moveTo("architecting", "pm_completed");
      return true;
    }
    return handleResearch(step, event, { agent: PM, role: "product-manager" });
  },
};

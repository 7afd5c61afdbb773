import { F } from "../../protocol/paths.ts";
import type { PhaseHandler } from "../types.ts";

export const DESIGNER = "designer";

export const designing: PhaseHandler = {
  enter(step, entry) {
    if (entry.reason !== "resumed") step.emit({ type: "delete_file", path: F.design });
    step.solo(DESIGNER, "designer", `[designer] ${step.state.feature_name ?? "design"}`, { path: F.designerPrompt, template: "designer" });
  },
  on(step, event) {
    // design.md reaches the orchestrator only once it is complete (stable and non-empty).
    if (event.type === "design_written") {
      step.kill(DESIGNER);
      step.moveTo("implementing", "design_written");
      return true;
    }
    return false;
  },
};

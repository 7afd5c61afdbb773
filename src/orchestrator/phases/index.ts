import type { Phase } from "../../schema/catalog.ts";
import type { PhaseHandler } from "../types.ts";
import { architecting } from "./architecting.ts";
import { completing } from "./completing.ts";
import { designing } from "./designing.ts";
import { fixing } from "./fixing.ts";
import { implementing } from "./implementing.ts";
import { planning } from "./planning.ts";
import { productManagement } from "./product-management.ts";
import { reviewing } from "./reviewing.ts";

/** Terminal phases take no events; a failed run is resumed by `agentmux resume`. */
const terminal: PhaseHandler = { enter() {}, on: () => true };

export const HANDLERS: Record<Phase, PhaseHandler> = {
  product_management: productManagement,
  architecting,
  planning,
  designing,
  implementing,
  reviewing,
  fixing,
  completing,
  done: terminal,
  failed: terminal,
};

/** The agent that owns research dispatched in a phase (told when a topic finishes or fails). */
export const RESEARCH_OWNER: Partial<Record<Phase, string>> = {
  product_management: "product-manager",
  architecting: "architect",
  planning: "planner",
};

import type { Config } from "../schema/config.ts";
import { originOf, type Origins } from "./merge.ts";

export const SIM_SCENARIO_ENV = "AGENTMUX_SIM_SCENARIO";

/**
 * AGENTMUX_SIM_SCENARIO (the simulated agent's scenario switches, comma-separated) is the
 * scenario when no config file sets `sim.scenario`; a file that sets it, even to [], wins.
 * The sim reads its switches from this variable in its own environment, which the launch sets
 * from `sim.scenario`: without this the variable given to `agentmux run` never reached it.
 */
export function simScenarioFromEnv(config: Config, env: Record<string, string | undefined>, origins: Origins): void {
  const text = env[SIM_SCENARIO_ENV]?.trim();
  if (!text || originOf(origins, "sim.scenario").layer !== "built-in") return;
  config.sim.scenario = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  origins["sim.scenario"] = { layer: "env", file: SIM_SCENARIO_ENV };
}

import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { SimScenarioInvalid } from "./errors.ts";
import { SimScenario } from "../schema/sim-scenario.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { F } from "../session/paths.ts";

const SHORT_REVIEWERS: Record<string, string> = { logic: "reviewer_logic", quality: "reviewer_quality", expert: "reviewer_expert" };

/** What a switch that takes a value is given (the others are bare flags). */
const SWITCH_VALUES: Partial<Record<keyof SimScenario, string>> = {
  reviewers: "logic+quality+expert",
  crash: "<role>",
  crash_once: "<role>",
  stall: "<role>",
  slow_start: "<ms>",
  early_enter_ms: "<n>",
};

/** Every switch, as the usage hint lists it. */
export const SWITCHES = (Object.keys(SimScenario.shape) as (keyof SimScenario)[]).map((k) => (SWITCH_VALUES[k] ? `${k}=${SWITCH_VALUES[k]}` : k));

/**
 * Parse AGENTMUX_SIM_SCENARIO: comma-separated switches, `name` or `name=value`
 * (`reviewers=logic+quality+expert`). Unknown switches or bad values are usage errors.
 */
export function parseScenario(text: string | undefined): SimScenario {
  const raw: Record<string, unknown> = {};
  for (const part of (text ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq).trim();
    const value = eq < 0 ? undefined : part.slice(eq + 1).trim();
    if (name === "reviewers") {
      raw.reviewers = (value ?? "").split(/[+ ]/).filter(Boolean).map((r) => SHORT_REVIEWERS[r] ?? r);
    } else {
      raw[name] = value === undefined ? true : value;
    }
  }
  const parsed = SimScenario.safeParse(raw);
  if (!parsed.success) {
    throw new SimScenarioInvalid({ problems: z.prettifyError(parsed.error).replace(/\n/g, "; "), switches: SWITCHES });
  }
  return parsed.data;
}

/**
 * "Once" switches remember that they fired in `<session>/.runtime/sim/<key>`, so a
 * restarted agent (resume) behaves well the second time.
 */
export class OnceState {
  constructor(private readonly sessionDir: string) {}

  private marker(key: string): string {
    return join(this.sessionDir, F.runtimeDir, "sim", key.replace(/[^A-Za-z0-9_.-]/g, "_"));
  }

  fired(key: string): boolean {
    return existsSync(this.marker(key));
  }

  /** True the first time it is called for `key` in this session; records the firing. */
  take(key: string): boolean {
    if (this.fired(key)) return false;
    writeFileAtomic(this.marker(key), new Date().toISOString() + "\n");
    return true;
  }
}

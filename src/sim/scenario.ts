import { existsSync } from "node:fs";
import { join } from "node:path";
import { SimScenarioInvalid } from "./errors.ts";
import { SIM_SWITCHES, parseScenarioText, type SimScenario } from "../schema/sim-scenario.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { F, agentFileName } from "../protocol/paths.ts";

/** Every switch, as the usage hint lists it. */
export const SWITCHES = SIM_SWITCHES;

/**
 * Parse AGENTMUX_SIM_SCENARIO: comma-separated switches, `name` or `name=value`
 * (`reviewers=logic+quality+expert`). Unknown switches or bad values are usage errors (exit 2).
 */
export function parseScenario(text: string | undefined, where?: string): SimScenario {
  const r = parseScenarioText(text);
  if (!r.ok) {
    throw new SimScenarioInvalid({ problems: r.message, switches: SWITCHES, ...(where ? { where } : {}) });
  }
  return r.value;
}

/** The file that releases the tasks of prompt `name` held by the `hold` switch. */
export function releaseFile(sessionDir: string, name: string): string {
  return join(sessionDir, F.runtimeDir, "sim", "release", name);
}

/**
 * "Once" switches remember that they fired in `<session>/.runtime/sim/<key>`, so a
 * restarted agent (resume) behaves well the second time.
 */
export class OnceState {
  constructor(private readonly sessionDir: string) {}

  private marker(key: string): string {
    return join(this.sessionDir, F.runtimeDir, "sim", agentFileName(key));
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

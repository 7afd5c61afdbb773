import { ARTIFACT_KINDS } from "../artifacts/kind-names.ts";
import { ROLES } from "../schema/role-names.ts";
import { SIM_SWITCH_NAMES } from "../schema/sim-switch-names.ts";
import type { ValueSet } from "./spec.ts";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * How each value set is named in messages, and its values when the set is closed (fixed at
 * build time, checked by the parser); `offered`: words completion offers for a value the parser
 * does not check (a comma-separated list, `name=value`).
 */
export const VALUE_SETS: Record<ValueSet, { one: string; many: string; closed?: readonly string[]; offered?: readonly string[] }> = {
  files: { one: "file", many: "files" },
  sessions: { one: "session", many: "sessions" },
  providers: { one: "provider", many: "providers" },
  roles: { one: "role", many: "roles", closed: ROLES },
  "artifact-kinds": { one: "kind", many: "kinds", closed: ARTIFACT_KINDS },
  shells: { one: "shell", many: "shells", closed: SHELLS },
  "sim-switches": { one: "switch", many: "switches", offered: SIM_SWITCH_NAMES },
};

/** Value sets whose values depend on the project (completed by asking `agentmux completions --list SET`). */
export const DYNAMIC_SETS = ["providers"] as const;
export type DynamicSet = (typeof DYNAMIC_SETS)[number];

import { loadConfig } from "../config/load.ts";
import { UnknownProviderChoice, UnknownRole } from "./errors.ts";
import { ROLES, type Role } from "../schema/catalog.ts";
import type { Config } from "../schema/config.ts";
import { choicesFrom } from "./choices.ts";
import { editableConfigPath, editConfigText, readText, writeConfigChecked, type ConfigEdit } from "./project-config.ts";
import type { Option, Prompter } from "./prompter.ts";

/** A change to one role; undefined = leave as is, null = remove the override (follow the defaults). */
export type RoleChange = { role: string; provider?: string | null; model?: string | null };

/** Refuse an unknown role or provider with the valid ones listed (exit 2). */
export function checkRoleChange(change: RoleChange, config: Config): Role {
  if (!(ROLES as readonly string[]).includes(change.role)) {
    throw new UnknownRole({ role: change.role, valid: ROLES });
  }
  const providers = Object.keys(config.providers).sort();
  if (change.provider && !providers.includes(change.provider)) {
    throw new UnknownProviderChoice({ provider: change.provider, valid: providers });
  }
  return change.role as Role;
}

export function roleEdits(changes: RoleChange[]): ConfigEdit[] {
  const edits: ConfigEdit[] = [];
  for (const c of changes) {
    for (const key of ["provider", "model"] as const) {
      if (c[key] === undefined) continue;
      edits.push(c[key] === null ? { path: ["roles", c.role, key] } : { path: ["roles", c.role, key], value: c[key] });
    }
  }
  return edits;
}

/**
 * Apply role changes to the project config in place (comments and key order kept; the file is
 * created with the schema line when missing). The result is validated as a whole before an
 * atomic write; on any error nothing changes. Returns the file and whether its bytes changed.
 */
export function applyRoleChanges(
  projectDir: string,
  changes: RoleChange[],
  env: Record<string, string | undefined> = process.env,
): { path: string; changed: boolean } {
  const { config } = loadConfig({ projectDir, env });
  for (const c of changes) checkRoleChange(c, config);
  const path = editableConfigPath(projectDir);
  const text = editConfigText(readText(path), roleEdits(changes));
  return { path, changed: writeConfigChecked(path, text, env) };
}

/** Interactive `agentmux configure`: provider and model for each role; Enter keeps the current value. */
export async function askRoleChanges(p: Prompter, config: Config): Promise<RoleChange[]> {
  const current = choicesFrom(config);
  const options: Option[] = [
    { value: "default", label: `follow defaults.provider (${config.defaults.provider})` },
    ...Object.keys(config.providers)
      .sort()
      .map((value) => ({ value })),
  ];
  p.say(`For each role: Enter keeps the value in brackets; "default" follows defaults.provider; "-" clears a model.`);
  const changes: RoleChange[] = [];
  for (const role of ROLES) {
    const now = current.roles[role];
    const provider = await p.choose(`${role} — provider:`, options, now.provider ?? "default");
    const model = await p.text(`${role} — model (- = the CLI's default)`, now.model ?? "-");
    const change: RoleChange = { role };
    const nextProvider = provider === "default" ? null : provider;
    const nextModel = model === "-" ? null : model;
    if (nextProvider !== now.provider) change.provider = nextProvider;
    if (nextModel !== now.model) change.model = nextModel;
    if (change.provider !== undefined || change.model !== undefined) changes.push(change);
  }
  return changes;
}

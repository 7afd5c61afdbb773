import { ROLES, type Role } from "../schema/catalog.ts";
import type { Config } from "../schema/config.ts";
import type { ConfigEdit } from "./project-config.ts";

/** One role's override: null provider = follow defaults.provider; null model = the default model. */
export type RoleChoice = { provider: string | null; model: string | null };

/** Everything init asks about, as plain values. */
export type InitChoices = {
  provider: string;
  roles: Record<Role, RoleChoice>;
  github: { base_branch: string | null; draft: boolean; branch_prefix: string };
  /** how a --worktree run's worktree is made ready (worktree.setup / worktree.copy) */
  worktree: { setup: string[]; copy: string[] };
  /** checks to add (name → command): detected ones init proposes when none are configured */
  checks: Record<string, string>;
};

/** The choices a configuration currently amounts to (what the wizard shows as defaults). */
export function choicesFrom(config: Config): InitChoices {
  const roles = {} as Record<Role, RoleChoice>;
  for (const role of ROLES) roles[role] = { provider: config.roles[role]?.provider ?? null, model: config.roles[role]?.model ?? null };
  return {
    provider: config.defaults.provider,
    roles,
    github: { base_branch: config.github.base_branch, draft: config.github.draft, branch_prefix: config.github.branch_prefix },
    worktree: { setup: [...config.worktree.setup], copy: [...config.worktree.copy] },
    checks: {},
  };
}

/**
 * The edits that make the project file express `choices`: a value equal to what the lower layers
 * (built-in + user config) already give is removed from the project file, any other is set.
 * So the file holds only what differs from the defaults.
 */
export function choiceEdits(choices: InitChoices, baseline: Config): ConfigEdit[] {
  const base = choicesFrom(baseline);
  const edits: ConfigEdit[] = [];
  const put = (path: string[], value: unknown, baseValue: unknown) =>
    edits.push(JSON.stringify(value) === JSON.stringify(baseValue) ? { path } : { path, value });
  put(["defaults", "provider"], choices.provider, base.provider);
  for (const role of ROLES) {
    put(["roles", role, "provider"], choices.roles[role].provider, base.roles[role].provider);
    put(["roles", role, "model"], choices.roles[role].model, base.roles[role].model);
  }
  put(["github", "base_branch"], choices.github.base_branch, base.github.base_branch);
  put(["github", "draft"], choices.github.draft, base.github.draft);
  put(["github", "branch_prefix"], choices.github.branch_prefix, base.github.branch_prefix);
  put(["worktree", "setup"], choices.worktree.setup, base.worktree.setup);
  put(["worktree", "copy"], choices.worktree.copy, base.worktree.copy);
  for (const [name, command] of Object.entries(choices.checks)) edits.push({ path: ["checks", name, "command"], value: command });
  return edits;
}

/** Providers the choices actually run (default + role overrides). */
export function chosenProviders(choices: InitChoices): string[] {
  return [...new Set([choices.provider, ...ROLES.map((r) => choices.roles[r].provider ?? choices.provider)])];
}

import { existsSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_CONFIG_NAMES } from "../config/load.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { findOnPath } from "../providers/doctor.ts";
import { resolveRole } from "../providers/resolve.ts";
import { ROLES } from "../schema/catalog.ts";
import type { Config } from "../schema/config.ts";
import { AGENTMUX_DIR } from "../protocol/paths.ts";

export const FIRST_RUN_MARKER = join(AGENTMUX_DIR, ".first_run_done");

/** Which provider (and model) each role uses: `claude: architect, coder, … (model: CLI default)`. */
export function roleProviderLines(config: Config): string[] {
  const groups = new Map<string, string[]>();
  for (const role of ROLES) {
    const agent = resolveRole(config, role);
    const key = `${agent.providerName}${agent.model ? ` (model ${agent.model})` : " (the CLI's default model)"}`;
    groups.set(key, [...(groups.get(key) ?? []), role]);
  }
  return [...groups].map(([key, roles]) => `  ${key}: ${roles.length === ROLES.length ? "every role" : roles.join(", ")}`);
}

/**
 * The once-per-project notice for a project without `.agentmux/config.yaml`: which provider
 * each role will use and how to change that. Returns null when the project has a config or the
 * notice was shown before; otherwise writes the marker `.agentmux/.first_run_done` and returns
 * the text (so it is shown once even if the caller prints it and the run then fails).
 */
export function firstRunNotice(projectDir: string, config: Config): string | null {
  if (PROJECT_CONFIG_NAMES.some((n) => existsSync(join(projectDir, AGENTMUX_DIR, n)))) return null;
  const marker = join(projectDir, FIRST_RUN_MARKER);
  if (existsSync(marker)) return null;
  writeFileAtomic(marker, new Date().toISOString() + "\n");
  return [
    "First run of agentmux in this project: there is no .agentmux/config.yaml, so these providers will run:",
    ...roleProviderLines(config),
    "To change them: agentmux init (guided setup) or agentmux configure --role coder --provider codex --model <name>.",
  ].join("\n");
}

/** Configured providers (all roles) whose CLI is a real program, not the built-in simulator. */
function externalCommands(config: Config): { provider: string; command: string }[] {
  const names = [...new Set(ROLES.map((r) => config.roles[r]?.provider ?? config.defaults.provider))];
  return names.map((provider) => ({ provider, command: config.providers[provider]?.command ?? provider })).filter((p) => p.command !== "@self");
}

/**
 * When none of the CLIs the configuration uses is on `path`: a note pointing to `agentmux doctor`
 * (what is missing and how to install it) and `agentmux demo` (the pipeline with simulated
 * agents, no CLI needed). Null when at least one is found, or only the simulator is configured.
 */
export function noAgentCliNotice(config: Config, path: string): string | null {
  const clis = missingAgentClis(config, path);
  return clis && noAgentCliLines(clis).join("\n");
}

/** The CLIs the configuration uses (`provider ("command")`) when none of them is on `path`, else null. */
export function missingAgentClis(config: Config, path: string): string[] | null {
  const external = externalCommands(config);
  if (external.length === 0) return null;
  if (external.some((p) => findOnPath(p.command, path))) return null;
  return external.map((p) => (p.command === p.provider ? p.provider : `${p.provider} ("${p.command}")`));
}

export function noAgentCliLines(clis: string[]): string[] {
  return [
    `None of the agent CLIs this configuration uses is on PATH: ${clis.join(", ")}.`,
    "  agentmux doctor   shows what is missing and how to install it",
    "  agentmux demo     runs the whole pipeline with simulated agents (no AI CLI needed)",
    "  agentmux init     picks a provider among the CLIs you have",
  ];
}

/** How to make `dir` a git repository agentmux can work in. */
export function notGitRepoHelp(dir: string): string {
  return [
    `${dir} is not a git repository. agentmux works on a branch and commits the result, so it needs one with a first commit:`,
    `  cd ${JSON.stringify(dir)} && git init && git add -A && git commit -m "Initial commit"`,
    "Then run agentmux again.",
  ].join("\n");
}

/** How to give `dir`, a git repository without commits, the first commit a run branches from. */
export function noCommitHelp(dir: string): string {
  return [
    `${dir} has no commit yet. agentmux starts each run's branch from a commit, so make the first one:`,
    `  cd ${JSON.stringify(dir)} && git add -A && git commit -m "Initial commit"`,
    "Then run agentmux again.",
  ].join("\n");
}

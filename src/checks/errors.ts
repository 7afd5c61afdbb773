import { defineError } from "../errors.ts";
import type { CheckProblem } from "./preflight.ts";

/** Configured checks that cannot run (preflightChecks): nothing was started. */
export const ChecksNotRunnable = defineError("ChecksNotRunnable", "config", (d: { problems: CheckProblem[] }) => ({
  message: `${d.problems.length === 1 ? "a check cannot run" : `${d.problems.length} checks cannot run`}:\n${d.problems.map((p) => `  checks.${p.check}.${p.field}: ${p.problem}`).join("\n")}`,
  where: "checks",
  // the check may come from the user config or --config: `agentmux config` names its file
  hint: "install the tool, fix the command or its cwd, or remove the check, in the file that sets it (agentmux config names it)",
}));

/** `agentmux checks <name>` names a check the config does not have. */
export const UnknownCheck = defineError("UnknownCheck", "usage", (d: { name: string; known: string[] }) => ({
  message: `no check named ${d.name}`,
  where: "checks",
  hint: d.known.length
    ? `configured checks: ${d.known.join(", ")}`
    : "no check is configured: add one under checks: in .agentmux/config.yaml (agentmux init detects the usual ones)",
}));

/** `agentmux checks --base <branch>` names a branch that does not exist. */
export const ChecksBaseMissing = defineError("ChecksBaseMissing", "usage", (d: { branch: string; root: string }) => ({
  message: `--base ${d.branch}: no branch ${d.branch} here, neither local nor origin/${d.branch}`,
  where: d.root,
  hint: `name an existing branch (git branch -a), or fetch it first (git fetch origin ${d.branch})`,
}));

import { defineError } from "../errors.ts";
import type { CheckProblem } from "./preflight.ts";

/** Configured checks that cannot run (preflightChecks): nothing was started. */
export const ChecksNotRunnable = defineError(
  "ChecksNotRunnable",
  "config",
  (d: { problems: CheckProblem[] }) => ({
    message: `${d.problems.length === 1 ? "a check cannot run" : `${d.problems.length} checks cannot run`}:\n${d.problems.map((p) => `  checks.${p.check}.${p.field}: ${p.problem}`).join("\n")}`,
    where: "checks",
    hint: "install the tool, fix the command or its cwd in .agentmux/config.yaml, or remove the check",
  }),
);

/** `agentmux checks <name>` names a check the config does not have. */
export const UnknownCheck = defineError("UnknownCheck", "usage", (d: { name: string; known: string[] }) => ({
  message: `no check named ${d.name}`,
  where: "checks",
  hint: d.known.length ? `configured checks: ${d.known.join(", ")}` : "no check is configured: add one under checks: in .agentmux/config.yaml (agentmux init detects the usual ones)",
}));

import { defineError } from "../errors.ts";
import { noAgentCliLines, notGitRepoHelp } from "./first-run.ts";

/** init / configure: what the user gave that cannot be used, as data. */

export const UnknownRole = defineError("UnknownRole", "usage", (d: { role: string; valid: readonly string[] }) => ({
  message: `unknown role "${d.role}"`,
  where: "configure",
  hint: `valid roles: ${d.valid.join(", ")}`,
}));

/** `configure --provider` names a provider the configuration does not define. */
export const UnknownProviderChoice = defineError("UnknownProviderChoice", "usage", (d: { provider: string; valid: string[] }) => ({
  message: `unknown provider "${d.provider}"`,
  where: "configure",
  hint: `valid providers: ${d.valid.join(", ")} (or define providers.${d.provider} with a command in .agentmux/config.yaml)`,
}));

/** The user left a question (Ctrl-C, end of input): nothing was written. */
export const Canceled = defineError("Canceled", "usage", (_: Record<string, never>) => ({ message: "canceled; nothing was written" }), { exitCode: 130 });

/** A run started outside a git repository: how to make `dir` one. */
export const NoRepositoryForRun = defineError("NoRepositoryForRun", "git", (d: { dir: string }) => {
  const [message, ...hint] = notGitRepoHelp(d.dir).split("\n");
  return { message: message!, hint: hint.join("\n") };
});

/** None of the agent CLIs the configuration uses is on PATH (`clis`: provider, or provider ("command")). */
export const NoAgentCli = defineError("NoAgentCli", "provider", (d: { clis: string[] }) => {
  const [message, ...hint] = noAgentCliLines(d.clis);
  return { message: message!, hint: hint.join("\n") };
});

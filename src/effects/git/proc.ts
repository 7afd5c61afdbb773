import { runProcess, type ProcResult, type Runner } from "../process/run.ts";

/** git and gh run through the one process runner (src/effects/process/run.ts). */
export type { ProcOptions, ProcResult, Runner } from "../process/run.ts";

/** Environment for git children: never prompt for credentials on a terminal. */
export const GIT_ENV = { GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" };

let gitCliCache: boolean | undefined;

/**
 * True when a `git` executable is on PATH. `AGENTMUX_NO_GIT_CLI=1` forces the
 * isomorphic-git paths (tests use it to check both implementations agree).
 */
export function gitCliAvailable(): boolean {
  if (process.env.AGENTMUX_NO_GIT_CLI === "1") return false;
  if (gitCliCache === undefined) gitCliCache = Bun.which("git") !== null;
  return gitCliCache;
}

/** Run `git <args>` in `cwd` with the non-interactive environment. */
export function runGit(cwd: string, args: string[], run: Runner = runProcess): Promise<ProcResult> {
  return run(["git", ...args], { cwd, env: GIT_ENV });
}

/** The first line of a failure, for messages. */
export function firstError(r: ProcResult): string {
  const text = (r.stderr.trim() || r.stdout.trim() || `exit ${r.code}`).split("\n").filter(Boolean);
  return text.slice(-3).join(" ").replace(/\s+/g, " ").slice(0, 400);
}

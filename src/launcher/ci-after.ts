import { loadConfig } from "../config/load.ts";
import { defineError } from "../errors.ts";
import { findRepoRoot } from "../effects/git/repo.ts";
import { LAST_COMPLETION_FILE } from "../protocol/files.ts";
import { readOptionalSessionFile } from "../session/file-io.ts";
import { followCiRounds } from "./ci-rounds.ts";
import { startRun, type StartOptions } from "./start.ts";

export const NoPullRequestToWatch = defineError("NoPullRequestToWatch", "usage", (d: { session: string }) => ({
  message: `session ${d.session} opened no pull request: there is no CI to follow`,
  where: d.session,
  hint: "--watch-ci follows the pull request a finished run opened (github.pull_request: true, with gh)",
}));

type RunOptions = Omit<StartOptions, "request">;

function follow(o: RunOptions, projectDir: string, prUrl: string, branch: string, github: ReturnType<typeof loadConfig>["config"]["github"]): Promise<number> {
  return followCiRounds({
    projectDir,
    prUrl,
    branch,
    github,
    out: o.out,
    startRound: (round, request, n) =>
      startRun({ ...o, request, round, worktree: false, productManager: false, name: undefined, slugSource: `ci fix round ${n}` }),
  });
}

/**
 * After a run that opened a pull request, with `github.watch_ci: true`: follow its CI and run
 * fix rounds while it fails (followCiRounds). The run's own exit code otherwise.
 */
export async function followCiAfterRun(code: number, o: RunOptions): Promise<number> {
  if (code !== 0) return code;
  const projectDir = await findRepoRoot(o.cwd);
  const { config } = loadConfig({ projectDir, ...(o.configPath ? { configPath: o.configPath } : {}) });
  if (!config.github.watch_ci) return code;
  const last = readOptionalSessionFile(projectDir, LAST_COMPLETION_FILE);
  if (!last?.pr_url) {
    o.out("agentmux: github.watch_ci is on, but the run opened no pull request: no CI to follow");
    return code;
  }
  return follow(o, projectDir, last.pr_url, last.branch_name, config.github);
}

/** `agentmux resume <session> --watch-ci`: follow the CI of the pull request a finished run opened. */
export async function followCiOfSession(
  s: { id: string; prUrl: string | null | undefined; branch: string | null | undefined },
  o: RunOptions,
): Promise<number> {
  if (!s.prUrl || !s.branch) throw new NoPullRequestToWatch({ session: s.id });
  const projectDir = await findRepoRoot(o.cwd);
  const { config } = loadConfig({ projectDir, ...(o.configPath ? { configPath: o.configPath } : {}) });
  return follow(o, projectDir, s.prUrl, s.branch, config.github);
}

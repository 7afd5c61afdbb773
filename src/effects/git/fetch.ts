import { defineError } from "../../errors.ts";
import { checkBranchName } from "./branch.ts";
import { firstError, runGit, type Runner } from "./proc.ts";

export const RemoteBranchFailed = defineError(
  "RemoteBranchFailed",
  "git",
  (d: { dir: string; branch: string; remote: string; step: string; detail: string }) => ({
    message: `git ${d.step} of branch "${d.branch}" failed: ${d.detail}`,
    where: d.dir,
    hint: `check that ${d.remote} has the branch and the job may read it`,
  }),
);

/**
 * Fetch `branch` from `remote` and check it out at the remote's tip (a CI checkout holds only
 * the default branch, often shallow). Uses the git CLI: the runner's credentials live there.
 */
export async function checkoutRemoteBranch(dir: string, branch: string, o: { remote?: string; run?: Runner } = {}): Promise<string> {
  checkBranchName(branch);
  const remote = o.remote ?? "origin";
  const tracking = `refs/remotes/${remote}/${branch}`;
  const steps: string[][] = [
    ["fetch", "--no-tags", remote, `+refs/heads/${branch}:${tracking}`],
    ["checkout", "-B", branch, tracking],
  ];
  for (const args of steps) {
    const r = await runGit(dir, args, o.run);
    if (r.code !== 0) {
      throw new RemoteBranchFailed({ dir, branch, remote, step: args[0]!, detail: firstError(r) });
    }
  }
  const head = await runGit(dir, ["rev-parse", "HEAD"], o.run);
  return head.stdout.trim();
}

/** The commit `branch` points at on `remote`, or null when the remote has no such branch. */
export async function remoteBranchTip(dir: string, branch: string, o: { remote?: string; run?: Runner } = {}): Promise<string | null> {
  checkBranchName(branch);
  const r = await runGit(dir, ["ls-remote", o.remote ?? "origin", `refs/heads/${branch}`], o.run);
  if (r.code !== 0) return null;
  return r.stdout.trim().split(/\s+/)[0] || null;
}

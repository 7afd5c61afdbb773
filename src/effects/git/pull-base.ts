import { branchCheckedOutElsewhere } from "./worktree-list.ts";
import { firstError, gitCliAvailable, runGit, type Runner } from "./proc.ts";
import { currentBranch } from "./repo.ts";

/** What pulling the base branch did, in one line for the screen (never throws). */
export type PullResult = { ok: boolean; line: string };

/**
 * Bring the local `base` branch up to date with `origin/<base>` before a run branches from it
 * (`agentmux issue`: the issue was written against what is on GitHub now). Fetch, then
 * fast-forward only: checked out here → `merge --ff-only` (uncommitted files ride along, a
 * conflict leaves everything as it was); not checked out → the ref moves if it is an ancestor;
 * local commits of its own, or checked out in another worktree → left alone and said.
 * Needs the git CLI (the user's credentials live there); without it, says so.
 */
export async function pullBaseBranch(root: string, base: string, o: { remote?: string; run?: Runner } = {}): Promise<PullResult> {
  const remote = o.remote ?? "origin";
  const say = (ok: boolean, why: string) => ({
    ok,
    line: ok ? `agentmux: ${why}` : `agentmux: ${base} was not updated from ${remote}: ${why}; the run starts from the local ${base}`,
  });
  if (!gitCliAvailable()) return say(false, "pulling needs the git CLI on PATH");
  const git = (args: string[]) => runGit(root, args, o.run);
  if ((await git(["remote", "get-url", remote])).code !== 0) return say(false, `there is no remote "${remote}"`);
  const tracking = `refs/remotes/${remote}/${base}`;
  const fetched = await git(["fetch", "--no-tags", remote, `+refs/heads/${base}:${tracking}`]);
  if (fetched.code !== 0) return say(false, `git fetch failed: ${firstError(fetched)}`);
  const local = (await git(["rev-parse", "-q", "--verify", `refs/heads/${base}^{commit}`])).stdout.trim();
  const theirs = (await git(["rev-parse", "-q", "--verify", `${tracking}^{commit}`])).stdout.trim();
  if (!local) return say(true, `fetched ${base} from ${remote} (${theirs.slice(0, 7)})`);
  if (local === theirs) return say(true, `${base} is up to date with ${remote}`);
  if ((await git(["merge-base", "--is-ancestor", local, theirs])).code !== 0) {
    return say(false, `the local ${base} has commits that are not on ${remote}/${base}`);
  }
  const moved = `updated ${base} from ${remote} (${local.slice(0, 7)} → ${theirs.slice(0, 7)})`;
  if ((await currentBranch(root)) === base) {
    const ff = await git(["merge", "--ff-only", "--quiet", tracking]);
    return ff.code === 0 ? say(true, moved) : say(false, `git merge --ff-only failed: ${firstError(ff)}`);
  }
  const elsewhere = branchCheckedOutElsewhere(root, base);
  if (elsewhere) return say(false, `it is checked out in ${elsewhere.path}`);
  const upd = await git(["update-ref", `refs/heads/${base}`, theirs, local]);
  return upd.code === 0 ? say(true, moved) : say(false, `git update-ref failed: ${firstError(upd)}`);
}

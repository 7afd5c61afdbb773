import * as git from "isomorphic-git";
import { BranchCheckedOutElsewhere, InvalidBranchName, NoCommitsYet, UncommittedChangesInTheWay } from "./errors.ts";
import { gitFs } from "./fs.ts";
import { currentBranch, findRepoRoot, headCommit, wrapGitError } from "./repo.ts";
import { overwrittenFiles, switchCheckout } from "./run-branch.ts";
import { branchCheckedOutElsewhere } from "./worktree-list.ts";

export type EnsuredBranch = { branch: string; created: boolean; baseCommit: string | null };

/**
 * Put the working tree on `branch`:
 * - already on it → nothing to do;
 * - it exists → check it out, refusing when uncommitted changes would be overwritten or the
 *   branch is checked out in another worktree;
 * - else create it at HEAD and point HEAD at it (the working tree is not touched).
 * A repository without commits is refused unless `allowEmpty`, which points HEAD at the
 * unborn branch so the first commit lands on it. No initial commit is ever made for the user.
 */
export async function ensureFeatureBranch(dir: string, branch: string, opts: { allowEmpty?: boolean } = {}): Promise<EnsuredBranch> {
  const root = await findRepoRoot(dir);
  checkBranchName(branch);
  const fs = gitFs(root);
  const head = await headCommit(root);
  if ((await currentBranch(root)) === branch) return { branch, created: false, baseCommit: head };
  if (head === null && !opts.allowEmpty) {
    throw new NoCommitsYet({ root, branch });
  }
  const elsewhere = branchCheckedOutElsewhere(root, branch);
  if (elsewhere) {
    throw new BranchCheckedOutElsewhere({ branch, worktree: elsewhere.path, root, from: "switch" });
  }
  try {
    const existing = await git.resolveRef({ fs, dir: root, ref: `refs/heads/${branch}` }).catch(() => null);
    if (existing) {
      const clobbered = await overwrittenFiles(root, fs, head, existing);
      if (clobbered.length) throw new UncommittedChangesInTheWay({ branch, files: clobbered, root });
      await switchCheckout(root, fs, head, { ref: branch, commit: existing, branch: true });
      return { branch, created: false, baseCommit: existing };
    }
    if (head !== null) await git.branch({ fs, dir: root, ref: branch, object: head, checkout: false });
    await git.writeRef({ fs, dir: root, ref: "HEAD", value: `refs/heads/${branch}`, symbolic: true, force: true });
    return { branch, created: true, baseCommit: head };
  } catch (e) {
    throw wrapGitError(e, `switching to branch "${branch}"`, root);
  }
}

/** The rules of `git check-ref-format --branch`, enough to refuse names git would reject. */
export function checkBranchName(branch: string): void {
  const bad =
    !branch ||
    branch.startsWith("-") ||
    branch.startsWith("/") ||
    branch.endsWith("/") ||
    branch.endsWith(".") ||
    branch.endsWith(".lock") ||
    branch === "@" ||
    /\.\.|\/\/|@\{|[\x00-\x20\x7f~^:?*[\\]/.test(branch) ||
    branch.split("/").some((part) => part.startsWith(".") || part.endsWith(".lock"));
  if (bad) {
    throw new InvalidBranchName({ branch });
  }
}

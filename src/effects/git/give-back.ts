import * as git from "isomorphic-git";
import { currentBranch } from "./repo.ts";
import { deleteBranchAt, returnToStart, type StartRef } from "./run-branch.ts";
import { gitFs } from "./fs.ts";
import { uncommittedRunChanges, type PreexistingChanges } from "./preexisting.ts";
import { listWorktrees, mainCheckout } from "./worktree-list.ts";
import { removeWorktree } from "./worktree.ts";

/** What a run that will not commit leaves of itself in the repository. */
export type RunCheckout = {
  projectDir: string;
  branch: string;
  /** the commit the branch started at: a branch still there has no commit of the run's */
  baseCommit: string | null;
  startRef: StartRef | null;
  worktreePath: string | null;
  preexisting: PreexistingChanges;
};

/**
 * An in-place run that ended without its commit (failed, canceled, cleaned) gives the checkout
 * back: it switches to the branch it started on, the run's uncommitted files riding along as
 * `git switch` carries them (a switch that would overwrite one is not made). With `dropBranch`
 * (the session is removed), the run's branch goes too when it holds no commit of its own.
 * Returns what it did, in words.
 */
export async function giveCheckoutBack(r: RunCheckout, o: { dropBranch: boolean }): Promise<string[]> {
  if (r.worktreePath) return dropWorktree(r, o);
  const notes: string[] = [];
  if ((await currentBranch(r.projectDir)) === r.branch && r.startRef) {
    const back = await returnToStart(r.projectDir, r.startRef);
    if (!back.ok) return [`your checkout stays on ${r.branch}: ${back.error}`];
    const carried = await uncommittedRunChanges(r.projectDir, r.preexisting).catch(() => []);
    notes.push(`your checkout is back on ${back.where}${carried.length ? `, with the run's ${carried.length} uncommitted file(s)` : ""}`);
  }
  if (o.dropBranch) notes.push(...(await dropBranch(r)));
  return notes;
}

async function dropBranch(r: RunCheckout): Promise<string[]> {
  const tip = await git.resolveRef({ fs: gitFs(r.projectDir), dir: r.projectDir, ref: `refs/heads/${r.branch}` }).catch(() => null);
  if (!tip) return [];
  if (tip !== r.baseCommit) return [`the branch ${r.branch} is kept: it has commits`];
  await deleteBranchAt(r.projectDir, r.branch, r.baseCommit);
  const gone = (await git.resolveRef({ fs: gitFs(r.projectDir), dir: r.projectDir, ref: `refs/heads/${r.branch}` }).catch(() => null)) === null;
  return gone ? [`deleted the branch ${r.branch} (it had no commit)`] : [];
}

/** A worktree run's worktree goes when nothing uncommitted would be lost with it; then its branch as above. */
async function dropWorktree(r: RunCheckout, o: { dropBranch: boolean }): Promise<string[]> {
  if (!o.dropBranch) return [];
  const main = await mainCheckout(r.projectDir);
  const wt = listWorktrees(main).find((w) => !w.missing && w.path === r.worktreePath);
  if (wt) {
    const left = await uncommittedRunChanges(wt.path, r.preexisting).catch(() => null);
    if (left === null || left.length) {
      const what = left === null ? "its changes could not be read" : `${left.length} uncommitted file(s) would be lost (${left.slice(0, 3).join(", ")})`;
      return [`kept the worktree ${wt.path} and its branch ${r.branch}: ${what}`];
    }
    await removeWorktree(main, wt.path);
  }
  return [...(wt ? [`removed the worktree ${wt.path}`] : []), ...(await dropBranch({ ...r, projectDir: main }))];
}

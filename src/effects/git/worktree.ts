import * as git from "isomorphic-git";
import * as nodeFs from "node:fs";
import { dirname, join, resolve } from "node:path";
import { BranchCheckedOutElsewhere, InvalidWorktreeName, NoCommitsYet, NotALinkedWorktree, WorktreeOnOtherBranch, WorktreePathTaken } from "./errors.ts";
import { checkBranchName } from "./branch.ts";
import { gitFs } from "./fs.ts";
import { gitDirs, headCommit, wrapGitError } from "./repo.ts";
import { dropIfEmpty, listWorktrees, mainCheckout, worktreesDir } from "./worktree-list.ts";

export { pruneWorktrees, type PruneReport } from "./worktree-prune.ts";
export { mainCheckout, worktreesDir } from "./worktree-list.ts";

/**
 * A linked worktree for `branch` at `<repo-parent>/<repo>-worktrees/<slug>/`, made with
 * isomorphic-git alone: the admin files git expects, the branch (when new: from `from`, else
 * HEAD), and a checkout through the worktree-aware fs. An existing worktree on the same branch
 * is reused. `baseCommit`: the commit the branch starts at (null when it existed already).
 */
export async function createWorktree(
  repoDir: string,
  opts: { slug: string; branch: string; from?: string },
): Promise<{ path: string; baseCommit: string | null }> {
  const mainRoot = await mainCheckout(repoDir);
  checkBranchName(opts.branch);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(opts.slug)) {
    throw new InvalidWorktreeName({ slug: opts.slug });
  }
  const path = join(worktreesDir(mainRoot), opts.slug);
  const all = listWorktrees(mainRoot);
  const here = all.find((w) => !w.missing && resolve(w.path) === path);
  if (here) {
    if (here.branch === opts.branch) return { path, baseCommit: null };
    throw new WorktreeOnOtherBranch({ path, branch: here.branch ?? null, expected: opts.branch });
  }
  if (nodeFs.existsSync(path)) {
    throw new WorktreePathTaken({ path, mainRoot });
  }
  const busy = all.find((w) => !w.missing && w.branch === opts.branch);
  if (busy) {
    throw new BranchCheckedOutElsewhere({ branch: opts.branch, worktree: busy.path, root: mainRoot, from: "worktree" });
  }
  for (const w of all) if (w.missing && resolve(w.path) === path) nodeFs.rmSync(w.adminDir, { recursive: true, force: true });
  const head = opts.from ?? (await headCommit(mainRoot));
  if (head === null) {
    throw new NoCommitsYet({ root: mainRoot });
  }
  const { commondir } = gitDirs(mainRoot);
  const adminDir = freeAdminDir(join(commondir, "worktrees"), opts.slug);
  let exists: string | null = null;
  try {
    const mainFs = gitFs(mainRoot);
    exists = await git.resolveRef({ fs: mainFs, dir: mainRoot, ref: `refs/heads/${opts.branch}` }).catch(() => null);
    if (!exists) await git.branch({ fs: mainFs, dir: mainRoot, ref: opts.branch, object: head, checkout: false });
    nodeFs.mkdirSync(adminDir, { recursive: true });
    nodeFs.writeFileSync(join(adminDir, "gitdir"), join(path, ".git") + "\n");
    nodeFs.writeFileSync(join(adminDir, "commondir"), "../..\n");
    nodeFs.writeFileSync(join(adminDir, "HEAD"), `ref: refs/heads/${opts.branch}\n`);
    nodeFs.mkdirSync(path, { recursive: true });
    nodeFs.writeFileSync(join(path, ".git"), `gitdir: ${adminDir}\n`);
    await git.checkout({ fs: gitFs(path), dir: path, ref: opts.branch, force: true });
  } catch (e) {
    nodeFs.rmSync(adminDir, { recursive: true, force: true });
    nodeFs.rmSync(path, { recursive: true, force: true });
    throw wrapGitError(e, `creating the worktree ${path}`, mainRoot);
  }
  return { path, baseCommit: exists ? null : head };
}

function freeAdminDir(base: string, slug: string): string {
  for (let i = 1; ; i++) {
    const p = join(base, i === 1 ? slug : `${slug}${i}`);
    if (!nodeFs.existsSync(p)) return p;
  }
}

/** Delete a linked worktree (its folder and its admin entry); the branch stays. */
export async function removeWorktree(repoDir: string, path: string): Promise<void> {
  const mainRoot = await mainCheckout(repoDir);
  const target = resolve(path);
  const w = listWorktrees(mainRoot).find((x) => !x.main && resolve(x.path) === target);
  if (!w) throw new NotALinkedWorktree({ path: target, mainRoot });
  nodeFs.rmSync(target, { recursive: true, force: true });
  nodeFs.rmSync(w.adminDir, { recursive: true, force: true });
  if (dirname(target) === worktreesDir(mainRoot)) dropIfEmpty(dirname(target));
}

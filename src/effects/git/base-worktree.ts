import * as git from "isomorphic-git";
import * as nodeFs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitFs } from "./fs.ts";
import { gitDirs, wrapGitError } from "./repo.ts";
import { mainCheckout } from "./worktree-list.ts";

/** Admin entries of base worktrees start with this (a crash leaves one `git worktree prune` drops). */
export const BASE_WORKTREE_PREFIX = "agentmux-base-";

/**
 * Run `fn` in a temporary linked worktree of `commit` (detached HEAD) in the system's temp
 * folder, then remove it and its admin entry whatever happens. The user's checkout, its index and
 * its branches are never touched: the worktree has its own HEAD and index (isomorphic-git through
 * the worktree-aware fs, see reference/stack-notes.md).
 */
export async function withBaseWorktree<T>(repoDir: string, commit: string, fn: (path: string) => Promise<T>): Promise<T> {
  const mainRoot = await mainCheckout(repoDir);
  const { commondir } = gitDirs(mainRoot);
  sweepDeadBaseWorktrees(join(commondir, "worktrees"));
  const path = nodeFs.mkdtempSync(join(tmpdir(), BASE_WORKTREE_PREFIX));
  const adminDir = join(commondir, "worktrees", path.slice(path.lastIndexOf("/") + 1));
  try {
    nodeFs.mkdirSync(adminDir, { recursive: true });
    nodeFs.writeFileSync(join(adminDir, "gitdir"), join(path, ".git") + "\n");
    nodeFs.writeFileSync(join(adminDir, "commondir"), "../..\n");
    nodeFs.writeFileSync(join(adminDir, "HEAD"), `${commit}\n`);
    nodeFs.writeFileSync(join(path, ".git"), `gitdir: ${adminDir}\n`);
    try {
      await git.checkout({ fs: gitFs(path), dir: path, ref: commit, force: true });
    } catch (e) {
      throw wrapGitError(e, `checking out ${commit.slice(0, 12)} in a temporary worktree`, mainRoot);
    }
    return await fn(path);
  } finally {
    nodeFs.rmSync(path, { recursive: true, force: true });
    nodeFs.rmSync(adminDir, { recursive: true, force: true });
  }
}

/** Admin entries a killed process left (their temporary folder is gone): removed, as `git worktree prune` would. */
function sweepDeadBaseWorktrees(worktrees: string): void {
  let names: string[] = [];
  try {
    names = nodeFs.readdirSync(worktrees).filter((n) => n.startsWith(BASE_WORKTREE_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    let gitdir = "";
    try {
      gitdir = nodeFs.readFileSync(join(worktrees, name, "gitdir"), "utf8").trim();
    } catch {}
    if (!gitdir || !nodeFs.existsSync(gitdir)) nodeFs.rmSync(join(worktrees, name), { recursive: true, force: true });
  }
}

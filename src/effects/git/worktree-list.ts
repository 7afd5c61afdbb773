import { existsSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { findRepoRoot, gitDirs } from "./repo.ts";

export type WorktreeInfo = {
  /** working tree root */
  path: string;
  /** admin dir (.git for the main checkout, .git/worktrees/<name> for linked ones) */
  adminDir: string;
  /** checked-out branch (short name), null when detached */
  branch: string | null;
  main: boolean;
  /** the admin entry points at a directory that no longer exists */
  missing: boolean;
};

/** The main checkout and every linked worktree of the repository that `root` belongs to. */
export function listWorktrees(root: string): WorktreeInfo[] {
  const { commondir } = gitDirs(root);
  const out: WorktreeInfo[] = [{ path: dirname(commondir), adminDir: commondir, branch: headBranch(commondir), main: true, missing: false }];
  const admin = join(commondir, "worktrees");
  let names: string[] = [];
  try {
    names = readdirSync(admin);
  } catch {}
  for (const name of names) {
    const adminDir = join(admin, name);
    let gitdirFile: string;
    try {
      gitdirFile = readFileSync(join(adminDir, "gitdir"), "utf8").trim();
    } catch {
      continue;
    }
    const path = dirname(resolve(adminDir, gitdirFile));
    out.push({ path, adminDir, branch: headBranch(adminDir), main: false, missing: !existsSync(join(path, ".git")) });
  }
  return out;
}

function headBranch(adminDir: string): string | null {
  try {
    const head = readFileSync(join(adminDir, "HEAD"), "utf8").trim();
    const m = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    return m ? m[1] : null;
  } catch {
    return null;
  }
}

/** The other working tree (not `root`) that has `branch` checked out, if any. */
export function branchCheckedOutElsewhere(root: string, branch: string): WorktreeInfo | undefined {
  const self = resolve(root);
  return listWorktrees(root).find((w) => !w.missing && w.branch === branch && resolve(w.path) !== self);
}

/** The main checkout of the repository that `dir` belongs to (also from inside a linked worktree). */
export async function mainCheckout(dir: string): Promise<string> {
  return dirname(gitDirs(await findRepoRoot(dir)).commondir);
}

/** `<repo-parent>/<repo>-worktrees/` */
export function worktreesDir(mainRoot: string): string {
  return join(dirname(mainRoot), `${basename(mainRoot)}-worktrees`);
}

/** Remove the folder if it is empty (the last worktree under `<repo>-worktrees/` is gone); else leave it. */
export function dropIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    /* not empty, or gone: nothing to tidy */
  }
}

import * as nodeFs from "node:fs";
import { join, resolve } from "node:path";

/** Files that belong to one worktree (live under .git/worktrees/<name>/), not the common dir. */
const PER_WORKTREE =
  /^(HEAD|index|index\.lock|ORIG_HEAD|MERGE_HEAD|MERGE_MSG|FETCH_HEAD|CHERRY_PICK_HEAD|REVERT_HEAD|commondir|gitdir|logs\/HEAD|refs\/worktree\/.*|refs\/bisect\/.*|logs\/refs\/worktree\/.*)$/;

const FS_METHODS = ["readFile", "writeFile", "mkdir", "rmdir", "unlink", "stat", "lstat", "readdir", "readlink", "symlink", "rm", "chmod"] as const;

/**
 * The fs to hand isomorphic-git for `dir`. In a linked git worktree isomorphic-git ignores
 * `commondir` and silently writes objects and refs into .git/worktrees/<name>/; this proxy maps
 * every path under the worktree's gitdir to the common .git except the per-worktree files.
 * In an ordinary repository it returns node's fs unchanged.
 */
export function gitFs(dir: string): any {
  const dotgit = join(dir, ".git");
  let gitdir: string;
  let common: string;
  try {
    if (!nodeFs.statSync(dotgit).isFile()) return nodeFs;
    gitdir = resolve(dir, nodeFs.readFileSync(dotgit, "utf8").trim().replace(/^gitdir:\s*/, ""));
    common = resolve(gitdir, nodeFs.readFileSync(join(gitdir, "commondir"), "utf8").trim());
  } catch {
    return nodeFs;
  }
  const prefix = gitdir + "/";
  const map = (p: unknown) => {
    if (typeof p !== "string" || !p.startsWith(prefix)) return p;
    const rel = p.slice(prefix.length);
    return PER_WORKTREE.test(rel) ? p : join(common, rel);
  };
  const promises: Record<string, unknown> = {};
  for (const k of FS_METHODS) {
    promises[k] = (p: unknown, ...rest: unknown[]) => (nodeFs.promises as any)[k](map(p), ...rest);
  }
  return { promises };
}

/** True when `dir` is a linked worktree (its .git is a file). */
export function isLinkedWorktree(dir: string): boolean {
  try {
    return nodeFs.statSync(join(dir, ".git")).isFile();
  } catch {
    return false;
  }
}

import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

// No isomorphic-git here: the orchestrator and the checkout lock read the git dirs at start
// and must not load git for it (#15.2).

export type GitDirs = { gitdir: string; commondir: string };

/** Per-worktree git dir and the shared common dir (equal in an ordinary repository). */
export function gitDirs(root: string): GitDirs {
  const dotgit = join(root, ".git");
  if (statSync(dotgit).isDirectory()) return { gitdir: dotgit, commondir: dotgit };
  const gitdir = resolve(
    root,
    readFileSync(dotgit, "utf8")
      .trim()
      .replace(/^gitdir:\s*/, ""),
  );
  let commondir = gitdir;
  try {
    commondir = resolve(gitdir, readFileSync(join(gitdir, "commondir"), "utf8").trim());
  } catch {
    // a plain `.git` file pointing at a separate git dir (git init --separate-git-dir)
  }
  return { gitdir, commondir };
}

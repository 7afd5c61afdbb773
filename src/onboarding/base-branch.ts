import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import git from "isomorphic-git";
import { gitFs } from "../effects/git/fs.ts";

/**
 * The branch pull requests should target: the remote's default branch (origin/HEAD, as a
 * clone records it), else the branch checked out now, else null (not a git repository, or
 * no commit yet on an unnamed branch).
 */
export async function detectBaseBranch(dir: string): Promise<string | null> {
  if (!existsSync(join(dir, ".git"))) return null;
  const fs = gitFs(dir);
  try {
    const target = await git.resolveRef({ fs, dir, ref: "refs/remotes/origin/HEAD", depth: 1 });
    const m = /^refs\/remotes\/origin\/(.+)$/.exec(target);
    if (m) return m[1]!;
  } catch {
    // no origin/HEAD recorded
  }
  const plain = readOriginHeadFile(dir);
  if (plain) return plain;
  try {
    return (await git.currentBranch({ fs, dir, fullname: false })) ?? null;
  } catch {
    return null;
  }
}

function readOriginHeadFile(dir: string): string | null {
  try {
    const text = readFileSync(join(dir, ".git", "refs", "remotes", "origin", "HEAD"), "utf8");
    return /^ref: refs\/remotes\/origin\/(.+)$/m.exec(text)?.[1]?.trim() ?? null;
  } catch {
    return null;
  }
}

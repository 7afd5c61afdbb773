import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkedOutBranch, originHeadBranch } from "../effects/git/path-status.ts";

/**
 * The branch pull requests should target: the remote's default branch (origin/HEAD, as a
 * clone records it), else the branch checked out now, else null (not a git repository, or
 * no commit yet on an unnamed branch).
 */
export async function detectBaseBranch(dir: string): Promise<string | null> {
  if (!existsSync(join(dir, ".git"))) return null;
  return (await originHeadBranch(dir)) ?? readOriginHeadFile(dir) ?? (await checkedOutBranch(dir));
}

function readOriginHeadFile(dir: string): string | null {
  try {
    const text = readFileSync(join(dir, ".git", "refs", "remotes", "origin", "HEAD"), "utf8");
    return /^ref: refs\/remotes\/origin\/(.+)$/m.exec(text)?.[1]?.trim() ?? null;
  } catch {
    return null;
  }
}

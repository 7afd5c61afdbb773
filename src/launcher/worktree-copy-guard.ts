import { lstatSync } from "node:fs";
import { join } from "node:path";

/**
 * Why copying to `rel` in `worktree` would write somewhere else, or null when it would not: a
 * folder on the way, or the file itself, is a symlink (one tracked in HEAD may point anywhere,
 * even at a folder outside the repository; a dangling one is written through, too). A missing
 * folder is fine: it is made as a real one.
 */
export function copyTargetProblem(worktree: string, rel: string): string | null {
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const at = parts.slice(0, i).join("/");
    let st;
    try {
      st = lstatSync(join(worktree, at));
    } catch {
      return null; // from here on nothing exists: made fresh, as real folders and a file
    }
    if (st.isSymbolicLink()) return `${at} is a symlink in the worktree`;
  }
  return null;
}

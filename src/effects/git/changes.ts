import { AGENTMUX_DIR } from "../../protocol/paths.ts";
import { changedFilesCli } from "./changes-cli.ts";
import { changedFilesIso } from "./changes-iso.ts";
import { gitCliAvailable } from "./proc.ts";
import { findRepoRoot, wrapGitError } from "./repo.ts";

export type FileChange = { path: string; status: "added" | "modified" | "deleted" };
export type ChangesEngine = "auto" | "cli" | "iso";

/**
 * Files whose working-tree content differs from HEAD, sorted by path: untracked files that are
 * not ignored (nested .gitignore included) are "added"; a rename is a delete plus an add;
 * submodules and nested repositories are left alone; nothing under `.agentmux/` is ever listed.
 * Uses the git CLI when it is on PATH (fast), else isomorphic-git with the index stat cache.
 */
export async function changedFiles(dir: string, engine: ChangesEngine = "auto"): Promise<FileChange[]> {
  const root = await findRepoRoot(dir);
  const useCli = engine === "cli" || (engine === "auto" && gitCliAvailable());
  let changes: FileChange[];
  try {
    if (engine === "cli") changes = await changedFilesCli(root);
    else if (useCli) changes = await changedFilesCli(root).catch(() => changedFilesIso(root));
    else changes = await changedFilesIso(root);
  } catch (e) {
    throw wrapGitError(e, "reading the working tree status", root);
  }
  return changes
    .filter((c) => c.path !== AGENTMUX_DIR && !c.path.startsWith(AGENTMUX_DIR + "/"))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

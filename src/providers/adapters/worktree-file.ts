import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { LaunchFile } from "../mcp.ts";

/**
 * The `info/exclude` of the git repository `workDir` is the top of (a checkout: `.git/`; a
 * linked worktree: its `.git` file names its git dir, whose `commondir` names the shared one),
 * or null when `workDir` is no repository's top.
 */
export function infoExcludeOf(workDir: string): string | null {
  const dotGit = join(workDir, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return join(dotGit, "info", "exclude");
    const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    if (!gitdir) return null;
    const dir = isAbsolute(gitdir) ? gitdir : resolve(workDir, gitdir);
    const common = existsSync(join(dir, "commondir")) ? readFileSync(join(dir, "commondir"), "utf8").trim() : ".";
    return join(isAbsolute(common) ? common : resolve(dir, common), "info", "exclude");
  } catch {
    return null;
  }
}

/**
 * A file a CLI reads only from its working folder, written there with content that never
 * changes between launches (no token, no session: those reach the CLI through its env), and
 * kept out of git through `info/exclude`. A file of the user's own at that path is left alone
 * (null is returned; the caller says what is missing).
 */
export function worktreeLocalFile(workDir: string, rel: string, content: string): LaunchFile[] | null {
  const path = join(workDir, rel);
  if (existsSync(path) && readFileSync(path, "utf8") !== content) return null;
  const files: LaunchFile[] = [{ path, content }];
  const exclude = infoExcludeOf(workDir);
  if (exclude) {
    const have = existsSync(exclude) ? readFileSync(exclude, "utf8") : "";
    const line = `/${rel}`;
    if (!have.split("\n").includes(line)) files.unshift({ path: exclude, content: `${have}${have && !have.endsWith("\n") ? "\n" : ""}# agentmux: what a CLI reads only from its working folder\n${line}\n` });
  }
  return files;
}

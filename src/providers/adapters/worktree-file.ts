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
  const [files] = worktreeLocalFiles(workDir, [{ rel, content }]);
  return files!;
}

/**
 * Several such files for one launch, each null when a file of the user's own is at its path;
 * the one `info/exclude` update (written with the first file written) names them all.
 */
export function worktreeLocalFiles(workDir: string, wanted: readonly { rel: string; content: string }[]): (LaunchFile[] | null)[] {
  const free = wanted.map((w) => {
    const path = join(workDir, w.rel);
    return existsSync(path) && readFileSync(path, "utf8") !== w.content ? null : { ...w, path };
  });
  const exclude = infoExcludeOf(workDir);
  const have = exclude && existsSync(exclude) ? readFileSync(exclude, "utf8") : "";
  const lines = free.flatMap((f) => (f && !have.split("\n").includes(`/${f.rel}`) ? [`/${f.rel}`] : []));
  let excluded = !exclude || !lines.length;
  return free.map((f) => {
    if (!f) return null;
    const files: LaunchFile[] = [{ path: f.path, content: f.content, local: true }];
    if (!excluded) {
      excluded = true;
      files.unshift({
        path: exclude!,
        content: `${have}${have && !have.endsWith("\n") ? "\n" : ""}# agentmux: what a CLI reads only from its working folder\n${lines.join("\n")}\n`,
      });
    }
    return files;
  });
}

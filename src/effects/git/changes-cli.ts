import { join } from "node:path";
import { GitOperationFailed } from "./errors.ts";
import { lstatFile, worktreeBlob } from "./head-tree.ts";
import { firstError, runGit } from "./proc.ts";
import type { FileChange } from "./changes.ts";

const STATUS: Record<string, FileChange["status"]> = { A: "added", M: "modified", T: "modified", D: "deleted" };

/**
 * Working tree vs HEAD through the git CLI: `git diff HEAD --name-status` for tracked paths
 * plus `git ls-files --others --exclude-standard` for untracked ones. Must agree with
 * changedFilesIso exactly (test/git/changes.test.ts runs both).
 */
export async function changedFilesCli(root: string): Promise<FileChange[]> {
  const head = await runGit(root, ["rev-parse", "-q", "--verify", "HEAD^{commit}"]);
  const hasHead = head.code === 0;
  const byPath = new Map<string, FileChange["status"]>();
  if (hasHead) {
    const diff = await git(root, [
      "-c",
      "core.quotepath=off",
      "diff",
      "HEAD",
      "--name-status",
      "-z",
      "--no-renames",
      "--no-ext-diff",
      "--no-textconv",
      "--ignore-submodules=all",
    ]);
    const parts = diff.split("\0");
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = STATUS[parts[i][0]];
      if (status) byPath.set(parts[i + 1], status);
    }
  } else {
    for (const p of split(await git(root, ["ls-files", "-z", "--cached", "--exclude-standard"]))) {
      if (lstatFile(join(root, p))) byPath.set(p, "added");
    }
  }
  const reappeared: string[] = [];
  for (const p of split(await git(root, ["ls-files", "-z", "--others", "--exclude-standard"]))) {
    if (p.endsWith("/")) continue; // a nested repository: never touched
    if (byPath.get(p) === "deleted") reappeared.push(p);
    else byPath.set(p, "added");
  }
  if (reappeared.length) await compareReappeared(root, reappeared, byPath);
  return [...byPath].map(([path, status]) => ({ path, status }));
}

/** Paths dropped from the index but still on disk: modified only if they differ from HEAD. */
async function compareReappeared(root: string, paths: string[], byPath: Map<string, FileChange["status"]>): Promise<void> {
  const out = await git(root, ["ls-tree", "-z", "HEAD", "--", ...paths]);
  for (const line of split(out)) {
    const m = /^(\d+) \w+ ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (!m) continue;
    const st = lstatFile(join(root, m[3]));
    if (!st) continue;
    const wt = worktreeBlob(join(root, m[3]), st);
    if (wt.oid === m[2] && wt.mode === parseInt(m[1], 8)) byPath.delete(m[3]);
    else byPath.set(m[3], "modified");
  }
}

async function git(root: string, args: string[]): Promise<string> {
  const r = await runGit(root, args);
  if (r.code !== 0)
    throw new GitOperationFailed({
      operation: `git ${args
        .filter((a) => !a.startsWith("-c") && !a.includes("="))
        .slice(0, 2)
        .join(" ")}`,
      detail: firstError(r),
      root,
    });
  return r.stdout;
}

function split(s: string): string[] {
  return s.split("\0").filter(Boolean);
}

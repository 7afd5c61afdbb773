import * as git from "isomorphic-git";
import * as nodeFs from "node:fs";
import { join, resolve } from "node:path";
import { changedFiles } from "./changes.ts";
import { gitFs } from "./fs.ts";
import { dropIfEmpty, listWorktrees, mainCheckout, worktreesDir } from "./worktree-list.ts";

export type PruneReport = { removed: string[]; kept: { path: string; reason: string }[] };

/**
 * Drop admin entries of worktrees whose folder is gone, then remove every folder under
 * `<repo>-worktrees/` that no session keeps — but never one with uncommitted changes, one
 * whose commits are on no other branch or remote-tracking ref, a folder that is not a
 * worktree of this repository, or one `protect` names a reason for. Those are reported in
 * `kept` with the reason.
 */
export async function pruneWorktrees(repoDir: string, keep: string[], opts: { protect?: (path: string) => string | null } = {}): Promise<PruneReport> {
  const mainRoot = await mainCheckout(repoDir);
  const report: PruneReport = { removed: [], kept: [] };
  for (const w of listWorktrees(mainRoot)) if (w.missing) nodeFs.rmSync(w.adminDir, { recursive: true, force: true });
  const base = worktreesDir(mainRoot);
  let names: string[] = [];
  try {
    names = nodeFs.readdirSync(base);
  } catch {
    return report;
  }
  const keepSet = new Set(keep.map((k) => resolve(k)));
  const worktrees = listWorktrees(mainRoot);
  for (const name of names.sort()) {
    const path = join(base, name);
    if (keepSet.has(path)) continue;
    const protectedWhy = opts.protect?.(path);
    if (protectedWhy) {
      report.kept.push({ path, reason: protectedWhy });
      continue;
    }
    const w = worktrees.find((x) => !x.main && resolve(x.path) === path);
    if (!w) {
      report.kept.push({ path, reason: "not a worktree of this repository; delete it by hand if it is not needed" });
      continue;
    }
    const changes = await changedFiles(path);
    if (changes.length) {
      report.kept.push({ path, reason: `${changes.length} uncommitted change(s), e.g. ${changes[0].path}` });
      continue;
    }
    if (!(await headIsSafe(mainRoot, path, w.branch))) {
      report.kept.push({ path, reason: `branch "${w.branch ?? "(detached)"}" has commits that are on no other branch or remote` });
      continue;
    }
    nodeFs.rmSync(path, { recursive: true, force: true });
    nodeFs.rmSync(w.adminDir, { recursive: true, force: true });
    report.removed.push(path);
  }
  if (report.removed.length) dropIfEmpty(base);
  return report;
}

/** True when the worktree's HEAD commit is contained in some other local branch or remote-tracking ref. */
async function headIsSafe(mainRoot: string, path: string, branch: string | null): Promise<boolean> {
  const fs = gitFs(path);
  const head = await git.resolveRef({ fs, dir: path, ref: "HEAD" }).catch(() => null);
  if (head === null) return true;
  const refs: string[] = (await git.listBranches({ fs: nodeFs, dir: mainRoot })).filter((b) => b !== branch).map((b) => `refs/heads/${b}`);
  for (const remote of await git.listRemotes({ fs: nodeFs, dir: mainRoot })) {
    for (const b of await git.listBranches({ fs: nodeFs, dir: mainRoot, remote: remote.remote }))
      if (b !== "HEAD") refs.push(`refs/remotes/${remote.remote}/${b}`);
  }
  const cache = {};
  for (const ref of refs) {
    const oid = await git.resolveRef({ fs: nodeFs, dir: mainRoot, ref }).catch(() => null);
    if (!oid) continue;
    if (oid === head || (await git.isDescendent({ fs: nodeFs, dir: mainRoot, oid, ancestor: head, depth: -1, cache }))) return true;
  }
  return false;
}

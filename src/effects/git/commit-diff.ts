import * as git from "isomorphic-git";
import type { FileChange } from "./changes.ts";
import { unifiedDiff } from "./diff.ts";
import { gitFs } from "./fs.ts";
import { flattenTree, type TreeEntry } from "./head-tree.ts";
import { findRepoRoot } from "./repo.ts";

/** The trees of `commit` and of its first parent (an empty one for a root commit). */
async function trees(dir: string, commit: string): Promise<{ root: string; fs: any; before: Map<string, TreeEntry>; after: Map<string, TreeEntry> }> {
  const root = await findRepoRoot(dir);
  const fs = gitFs(root);
  const cache = {};
  // a run records its commit abbreviated
  const oid = commit.length < 40 ? await git.expandOid({ fs, dir: root, oid: commit, cache }) : commit;
  const { commit: c } = await git.readCommit({ fs, dir: root, oid, cache });
  const parent = c.parent[0];
  const before = parent
    ? await flattenTree(fs, root, (await git.readCommit({ fs, dir: root, oid: parent, cache })).commit.tree, cache)
    : new Map<string, TreeEntry>();
  return { root, fs, before, after: await flattenTree(fs, root, c.tree, cache) };
}

/** The files a commit changed against its first parent (what a finished run committed). */
export async function commitChanges(dir: string, commit: string): Promise<FileChange[]> {
  const { before, after } = await trees(dir, commit);
  const out: FileChange[] = [];
  for (const [path, e] of after) {
    const was = before.get(path);
    if (!was) out.push({ path, status: "added" });
    else if (was.oid !== e.oid || was.mode !== e.mode) out.push({ path, status: "modified" });
  }
  for (const path of before.keys()) if (!after.has(path)) out.push({ path, status: "deleted" });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The unified diff of one path in `commit` against its first parent. */
export async function commitFileDiff(dir: string, commit: string, path: string): Promise<string> {
  const { root, fs, before, after } = await trees(dir, commit);
  const blob = async (e: TreeEntry | undefined) => (e ? (await git.readBlob({ fs, dir: root, oid: e.oid })).blob : null);
  return unifiedDiff(path, await blob(before.get(path)), await blob(after.get(path)));
}

import * as git from "isomorphic-git";
import { readdirSync, statSync, existsSync, type BigIntStats } from "node:fs";
import { join } from "node:path";
import { gitFs } from "./fs.ts";
import { flattenTree, lstatFile, worktreeBlob, worktreeMode, MODE_EXEC, MODE_FILE, MODE_GITLINK, type TreeEntry } from "./head-tree.ts";
import { readIndexFile, type IndexEntry } from "./index-file.ts";
import { gitDirs } from "./repo.ts";
import type { FileChange } from "./changes.ts";

/**
 * Working tree vs HEAD with isomorphic-git plus the index stat cache: a tracked file whose
 * lstat matches its index entry is not read; only stat-dirty files are hashed. Untracked files
 * come from one directory walk that asks `isIgnored` only about paths the index does not know.
 */
export async function changedFilesIso(root: string): Promise<FileChange[]> {
  const fs = gitFs(root);
  const { gitdir } = gitDirs(root);
  const indexPath = join(gitdir, "index");
  let indexMtime = 0;
  try {
    indexMtime = Math.floor(statSync(indexPath).mtimeMs / 1000);
  } catch {}
  const indexSnap = readIndexFile(indexPath, indexMtime);
  const index = indexSnap.entries;
  let head = new Map<string, TreeEntry>();
  try {
    const oid = await git.resolveRef({ fs, dir: root, ref: "HEAD" });
    const { commit } = await git.readCommit({ fs, dir: root, oid });
    // a valid cache-tree equal to HEAD's tree means the index holds exactly HEAD: skip reading trees
    head = indexSnap.rootTree === commit.tree ? treeFromIndex(index) : await flattenTree(fs, root, commit.tree);
  } catch (e) {
    if ((e as { code?: string }).code !== "NotFoundError") throw e;
  }
  const fileMode = (await git.getConfig({ fs, dir: root, path: "core.filemode" }).catch(() => undefined)) !== false;
  const sameMode = (a: number, b: number) => a === b || (!fileMode && isRegular(a) && isRegular(b));
  const ignored = (p: string) => git.isIgnored({ fs, dir: root, filepath: p });
  const gitlinks = new Set<string>();
  for (const [p, e] of head) if (e.mode === MODE_GITLINK) gitlinks.add(p);
  for (const [p, e] of index) if (e.mode === MODE_GITLINK) gitlinks.add(p);

  const out: FileChange[] = [];
  const tracked = new Set<string>([...head.keys(), ...index.keys()]);
  for (const path of tracked) {
    if (gitlinks.has(path)) continue;
    const h = head.get(path);
    const idx = index.get(path);
    const abs = join(root, path);
    const st = lstatFile(abs);
    if (!st) {
      if (h) out.push({ path, status: "deleted" });
      continue;
    }
    if (!idx && h && (await ignored(path))) {
      // removed from the index and now ignored: git reports the deletion only
      out.push({ path, status: "deleted" });
      continue;
    }
    const wt = idx && statClean(idx, st, indexMtime, sameMode) ? { oid: idx.oid, mode: worktreeMode(st) } : worktreeBlob(abs, st);
    if (!h) out.push({ path, status: "added" });
    else if (h.oid !== wt.oid || !sameMode(h.mode, wt.mode)) out.push({ path, status: "modified" });
  }

  const trackedDirs = new Set<string>();
  for (const p of index.keys()) for (let i = p.indexOf("/"); i >= 0; i = p.indexOf("/", i + 1)) trackedDirs.add(p.slice(0, i));
  const walk = async (rel: string): Promise<void> => {
    let names;
    try {
      names = readdirSync(rel ? join(root, rel) : root, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      if (d.name === ".git" || (!rel && d.name === ".agentmux")) continue;
      const p = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (gitlinks.has(p) || existsSync(join(root, p, ".git"))) continue; // submodule / nested repository
        if (trackedDirs.has(p) || !(await ignored(p + "/"))) await walk(p);
      } else if ((d.isFile() || d.isSymbolicLink()) && !tracked.has(p) && !(await ignored(p))) {
        out.push({ path: p, status: "added" });
      }
    }
  };
  await walk("");
  return out;
}

/** git's stat-cache test, with a 1µs tolerance for indexes isomorphic-git wrote from float mtimes. */
function statClean(e: IndexEntry, st: BigIntStats, indexMtimeSec: number, sameMode: (a: number, b: number) => boolean): boolean {
  if (!e.oid) return false;
  const sec = Number(st.mtimeNs / 1_000_000_000n);
  const nsec = Number(st.mtimeNs % 1_000_000_000n);
  if (sec % 2 ** 32 !== e.mtimeSec || Math.abs(nsec - e.mtimeNsec) > 1000) return false;
  if (Number(st.size) % 2 ** 32 !== e.size || Number(st.ino) % 2 ** 32 !== e.ino) return false;
  if (!sameMode(worktreeMode(st), e.mode)) return false;
  // racy git: a file modified in the same second the index was written may have the same stat
  return e.mtimeSec < indexMtimeSec;
}

function isRegular(mode: number): boolean {
  return mode === MODE_FILE || mode === MODE_EXEC;
}

function treeFromIndex(index: Map<string, IndexEntry>): Map<string, TreeEntry> {
  const out = new Map<string, TreeEntry>();
  for (const [p, e] of index) out.set(p, { oid: e.oid, mode: e.mode });
  return out;
}

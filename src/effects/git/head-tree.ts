import * as git from "isomorphic-git";
import { blobOid } from "./blob-id.ts";
import { lstatSync, readFileSync, readlinkSync, type BigIntStats } from "node:fs";

export type TreeEntry = { oid: string; mode: number };

export const MODE_FILE = 0o100644;
export const MODE_EXEC = 0o100755;
export const MODE_LINK = 0o120000;
export const MODE_GITLINK = 0o160000;

/** Every blob path of the tree `oid`, flattened (`a/b/c.txt` → oid + mode). Subtrees load in parallel. */
export async function flattenTree(fs: any, dir: string, oid: string, cache: object = {}): Promise<Map<string, TreeEntry>> {
  const out = new Map<string, TreeEntry>();
  const walk = async (treeOid: string, prefix: string): Promise<void> => {
    const { tree } = await git.readTree({ fs, dir, oid: treeOid, cache });
    const subs: Promise<void>[] = [];
    for (const e of tree) {
      const path = prefix + e.path;
      if (e.type === "tree") subs.push(walk(e.oid, path + "/"));
      else out.set(path, { oid: e.oid, mode: parseInt(e.mode, 8) });
    }
    await Promise.all(subs);
  };
  await walk(oid, "");
  return out;
}

export { blobOid };

/** A working-tree file as git would store it: its mode and blob oid (symlinks store their target). */
export function worktreeBlob(abs: string, st: BigIntStats): TreeEntry {
  if (st.isSymbolicLink()) return { mode: MODE_LINK, oid: blobOid(Buffer.from(readlinkSync(abs))) };
  return { mode: worktreeMode(st), oid: blobOid(readFileSync(abs)) };
}

export function worktreeMode(st: BigIntStats): number {
  if (st.isSymbolicLink()) return MODE_LINK;
  return (Number(st.mode) & 0o111) !== 0 ? MODE_EXEC : MODE_FILE;
}

/** lstat that returns null for anything that is not a file or symlink (missing, directory, …). */
export function lstatFile(abs: string): BigIntStats | null {
  try {
    const st = lstatSync(abs, { bigint: true });
    return st.isFile() || st.isSymbolicLink() ? st : null;
  } catch {
    return null;
  }
}

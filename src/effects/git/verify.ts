import * as git from "isomorphic-git";
import { readBackObject } from "./objects.ts";
import { ObjectUnreadable } from "./errors.ts";

/**
 * Read back every object a new commit adds before any ref points at it: the commit itself,
 * its parents, every tree on a changed path and every blob that differs from the base tree.
 * Objects shared with the base tree are the parent's and are not re-read (a full walk would
 * inflate every file of the repository). Throws ObjectUnreadable naming the first bad one.
 */
export async function verifyNewCommit(
  fs: any,
  dir: string,
  objectsGitdir: string,
  o: { commit: string; tree: string; parents: string[]; baseTree: string | null },
  cache: object = {},
): Promise<void> {
  // `cache` holds isomorphic-git's parsed pack indexes only (loading one per read costs seconds
  // on a large packed repository); loose objects are always read from disk
  const check = async (oid: string, what: string) => {
    try {
      await readBackObject(fs, dir, objectsGitdir, oid, cache);
    } catch (e) {
      throw new ObjectUnreadable({ root: dir, oid, what, reason: (e as Error).message }, { cause: e });
    }
  };
  await check(o.commit, "the new commit");
  for (const p of o.parents) await check(p, "the parent commit");
  const walk = async (tree: string, base: string | null, prefix: string): Promise<void> => {
    if (tree === base) return;
    await check(tree, prefix ? `the tree ${prefix}` : "the root tree");
    const before = new Map<string, string>();
    if (base) for (const e of (await git.readTree({ fs, dir, oid: base, cache })).tree) before.set(e.path, e.oid);
    for (const e of (await git.readTree({ fs, dir, oid: tree, cache })).tree) {
      if (before.get(e.path) === e.oid || e.type === "commit") continue;
      const path = prefix + e.path;
      if (e.type === "tree") await walk(e.oid, typeof before.get(e.path) === "string" ? before.get(e.path)! : null, path + "/");
      else await check(e.oid, path);
    }
  };
  await walk(o.tree, o.baseTree, "");
}

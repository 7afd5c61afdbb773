import * as git from "isomorphic-git";

/** One path's new state in the next commit: a blob (oid + mode), or null to delete it. */
export type TreeChange = { path: string; oid: string | null; mode: number };

/**
 * The tree of `base` with `changes` applied, writing only the trees on the changed paths.
 * isomorphic-git's own commit rebuilds every tree from the index (about 1 s on 20,000 files);
 * this costs a few reads and writes per changed directory. Empty directories disappear.
 */
export async function updateTree(fs: any, dir: string, base: string | null, changes: TreeChange[], cache: object): Promise<string> {
  const oid = await apply(fs, dir, base, changes, cache);
  return oid ?? (await git.writeTree({ fs, dir, tree: [] }));
}

type Entry = { mode: string; path: string; oid: string; type: "blob" | "tree" | "commit" };

async function apply(fs: any, dir: string, tree: string | null, changes: TreeChange[], cache: object): Promise<string | null> {
  const entries = new Map<string, Entry>();
  if (tree) for (const e of (await git.readTree({ fs, dir, oid: tree, cache })).tree) entries.set(e.path, e as Entry);
  const sub = new Map<string, TreeChange[]>();
  for (const c of changes) {
    const slash = c.path.indexOf("/");
    if (slash < 0) {
      if (c.oid === null) entries.delete(c.path);
      else entries.set(c.path, { mode: c.mode.toString(8).padStart(6, "0"), path: c.path, oid: c.oid, type: "blob" });
      continue;
    }
    const head = c.path.slice(0, slash);
    if (!sub.has(head)) sub.set(head, []);
    sub.get(head)!.push({ ...c, path: c.path.slice(slash + 1) });
  }
  // allSettled: a failed write (a full disk) must not return while sibling writes still run
  await settleAll(
    [...sub].map(async ([name, inner]) => {
      const existing = entries.get(name);
      const oid = await apply(fs, dir, existing?.type === "tree" ? existing.oid : null, inner, cache);
      if (oid === null) entries.delete(name);
      else entries.set(name, { mode: "040000", path: name, oid, type: "tree" });
    }),
  );
  if (entries.size === 0) return null;
  return git.writeTree({ fs, dir, tree: [...entries.values()] });
}

async function settleAll(work: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

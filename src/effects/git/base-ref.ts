import * as git from "isomorphic-git";
import { BaseBranchMissing } from "./errors.ts";
import { gitFs } from "./fs.ts";

/** Where a run's branch starts: a branch name and the commit it resolves to. */
export type BaseRef = { name: string; ref: string; oid: string; configured: boolean };

/**
 * The base branch of a run: `github.base_branch` when configured (it must exist, locally or
 * as origin/<name>), else the repository's default branch — origin/HEAD as a clone records it,
 * then init.defaultBranch, then main or master. A local branch wins over origin's copy.
 * Null when none of these exists (a repository with one unusual branch): the run then starts
 * from HEAD, and the caller says so.
 */
export async function resolveBaseRef(root: string, configured: string | null): Promise<BaseRef | null> {
  const fs = gitFs(root);
  const resolve = async (name: string): Promise<{ ref: string; oid: string } | null> => {
    for (const ref of [`refs/heads/${name}`, `refs/remotes/origin/${name}`]) {
      const oid = await git.resolveRef({ fs, dir: root, ref }).catch(() => null);
      if (oid) return { ref, oid };
    }
    return null;
  };
  if (configured) {
    const hit = await resolve(configured);
    if (!hit) throw new BaseBranchMissing({ root, branch: configured });
    return { name: configured, ...hit, configured: true };
  }
  for (const name of await defaultBranchCandidates(fs, root)) {
    const hit = await resolve(name);
    if (hit) return { name, ...hit, configured: false };
  }
  return null;
}

async function defaultBranchCandidates(fs: any, root: string): Promise<string[]> {
  const out: string[] = [];
  const originHead = await git.resolveRef({ fs, dir: root, ref: "refs/remotes/origin/HEAD", depth: 1 }).catch(() => null);
  const m = originHead ? /^refs\/remotes\/origin\/(.+)$/.exec(originHead) : null;
  if (m) out.push(m[1]!);
  const init = await git.getConfig({ fs, dir: root, path: "init.defaultBranch" }).catch(() => undefined);
  if (typeof init === "string" && init.trim()) out.push(init.trim());
  out.push("main", "master");
  return [...new Set(out)];
}

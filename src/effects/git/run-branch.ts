import * as git from "isomorphic-git";
import type { BaseRef } from "./base-ref.ts";
import { checkBranchName } from "./branch.ts";
import { changedFiles } from "./changes.ts";
import { CheckoutWouldOverwrite, NoCommitsYet } from "./errors.ts";
import { gitFs } from "./fs.ts";
import { flattenTree } from "./head-tree.ts";
import { currentBranch, headCommit, wrapGitError } from "./repo.ts";

/** Where the user's checkout was when a run started: a branch, or a detached commit. */
export type StartRef = { branch: string | null; commit: string | null };

export async function startRefOf(root: string): Promise<StartRef> {
  return { branch: await currentBranch(root), commit: await headCommit(root) };
}

/**
 * `wanted`, or `wanted-2`, `wanted-3`, … — the first name no local branch and no
 * remote-tracking branch uses, so a run never adds its commit to someone else's branch.
 */
export async function freeBranchName(root: string, wanted: string): Promise<string> {
  checkBranchName(wanted);
  const fs = gitFs(root);
  const taken = new Set(await git.listBranches({ fs, dir: root }));
  for (const remote of await git.listRemotes({ fs, dir: root }).catch(() => [])) {
    for (const b of await git.listBranches({ fs, dir: root, remote: remote.remote }).catch(() => [])) taken.add(b);
  }
  for (let n = 1; ; n++) {
    const name = n === 1 ? wanted : `${wanted}-${n}`;
    if (!taken.has(name)) return name;
  }
}

/**
 * Create `branch` at the base commit (HEAD when there is no base) and switch the checkout to
 * it. Uncommitted files ride along as `git switch` carries them; when the base differs from
 * HEAD on a file that has uncommitted changes, nothing is touched and CheckoutWouldOverwrite
 * names the files. Returns the commit the branch starts at.
 */
export async function switchToNewBranch(root: string, branch: string, base: BaseRef | null): Promise<string> {
  const fs = gitFs(root);
  const head = await headCommit(root);
  const from = base?.oid ?? head;
  if (from === null) throw new NoCommitsYet({ root, branch });
  if (from !== head) await refuseOverwrites(root, fs, head, from, base?.name ?? from);
  try {
    await git.branch({ fs, dir: root, ref: branch, object: from, checkout: false });
    if (from === head) await git.writeRef({ fs, dir: root, ref: "HEAD", value: `refs/heads/${branch}`, symbolic: true, force: true });
    else await switchCheckout(root, fs, head, { ref: branch, commit: from, branch: true });
  } catch (e) {
    throw wrapGitError(e, `switching to the new branch "${branch}"`, root);
  }
  return from;
}

/**
 * Put the checkout back where the run found it (after the run's commit): the start branch,
 * or the detached start commit. Uncommitted files ride along; a conflict leaves everything
 * as it is and comes back as an error text for the caller to report.
 */
export async function returnToStart(root: string, start: StartRef): Promise<{ ok: true; where: string } | { ok: false; error: string }> {
  const fs = gitFs(root);
  const target = start.branch ?? start.commit;
  if (!target) return { ok: false, error: "the run started on a branch without commits; staying on the run's branch" };
  const where = start.branch ?? `the commit ${start.commit!.slice(0, 7)}`;
  try {
    const head = await headCommit(root);
    const to = start.branch ? await git.resolveRef({ fs, dir: root, ref: `refs/heads/${start.branch}` }) : start.commit!;
    await refuseOverwrites(root, fs, head, to, where);
    await switchCheckout(root, fs, head, { ref: target, commit: to, branch: start.branch !== null });
    return { ok: true, where };
  } catch (e) {
    const msg = e instanceof CheckoutWouldOverwrite ? e.message : wrapGitError(e, `switching back to ${where}`, root).message;
    return { ok: false, error: msg };
  }
}

/** Delete `branch` only if it still points at `at` (it got no commit of its own) and is not checked out. */
export async function deleteBranchAt(root: string, branch: string, at: string | null): Promise<void> {
  const fs = gitFs(root);
  const tip = await git.resolveRef({ fs, dir: root, ref: `refs/heads/${branch}` }).catch(() => null);
  if (!tip || tip !== at || (await currentBranch(root)) === branch) return;
  await git.deleteBranch({ fs, dir: root, ref: branch });
}

/**
 * Move the checkout from `head` to `to` (a branch, or a detached commit) touching only the
 * files that differ between the two commits. isomorphic-git's checkout otherwise walks the whole
 * working tree, ignored folders too, and a file that vanishes under it (a concurrent run's
 * atomic-write temp file) failed the switch with ENOENT.
 */
export async function switchCheckout(root: string, fs: any, head: string | null, to: { ref: string; commit: string; branch: boolean }): Promise<void> {
  const cache = {};
  const treeOf = async (commit: string | null) =>
    commit === null ? new Map() : flattenTree(fs, root, (await git.readCommit({ fs, dir: root, oid: commit, cache })).commit.tree, cache);
  const [from, target] = await Promise.all([treeOf(head), treeOf(to.commit)]);
  const differ = [...new Set([...from.keys(), ...target.keys()])].filter(
    (p) => from.get(p)?.oid !== target.get(p)?.oid || from.get(p)?.mode !== target.get(p)?.mode,
  );
  for (let attempt = 1; ; attempt++) {
    try {
      if (differ.length) await git.checkout({ fs, dir: root, ref: to.ref, filepaths: differ, cache });
      break;
    } catch (e) {
      // a file vanishing under the walk is a moment's state: the walk is made again
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 5) throw e;
    }
  }
  // with filepaths the checkout leaves HEAD alone: point it at the branch (or the commit)
  if (to.branch) await git.writeRef({ fs, dir: root, ref: "HEAD", value: `refs/heads/${to.ref}`, symbolic: true, force: true });
  else await git.writeRef({ fs, dir: root, ref: "HEAD", value: to.commit, force: true });
}

/** Uncommitted files that moving the checkout from `head` to `target` would overwrite. */
export async function overwrittenFiles(root: string, fs: any, head: string | null, target: string): Promise<string[]> {
  const changes = await changedFiles(root);
  if (!changes.length) return [];
  const cache = {};
  const treeOf = async (commit: string | null) =>
    commit === null ? new Map() : flattenTree(fs, root, (await git.readCommit({ fs, dir: root, oid: commit, cache })).commit.tree, cache);
  const [from, to] = await Promise.all([treeOf(head), treeOf(target)]);
  return changes.filter((c) => from.get(c.path)?.oid !== to.get(c.path)?.oid).map((c) => c.path);
}

async function refuseOverwrites(root: string, fs: any, head: string | null, target: string, targetName: string): Promise<void> {
  const files = await overwrittenFiles(root, fs, head, target);
  if (files.length) throw new CheckoutWouldOverwrite({ root, target: targetName, files });
}

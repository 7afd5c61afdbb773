import * as git from "isomorphic-git";
import { join } from "node:path";
import { EmptyCommitMessage, NothingToCommit } from "./errors.ts";
import { resolveAuthor, type Author } from "./author.ts";
import { ensureFeatureBranch } from "./branch.ts";
import { changedFiles } from "./changes.ts";
import { applyExcludes, normalizeExcludes } from "./exclude.ts";
import { gitFs } from "./fs.ts";
import { readIndexFile } from "./index-file.ts";
import { findRepoRoot, gitDirs, headCommit, wrapGitError } from "./repo.ts";
import { updateTree, type TreeChange } from "./tree-update.ts";
import { runOwnChanges, type PreexistingChanges } from "./preexisting.ts";
import { verifyNewCommit } from "./verify.ts";
import { flushDeferred } from "./atomic-write.ts";
import { inertText } from "../../schema/inert-text.ts";

/**
 * `leftAlone`: uncommitted files from before the run, unchanged by it, left out of the commit.
 * `notes`: exclude entries that matched nothing (or only when case is ignored).
 * `excluded`: the run's own changed files left out by the exclude entries (still uncommitted).
 */
export type CommitResult = { hash: string; short: string; files: string[]; leftAlone: string[]; excluded: string[]; notes: string[] };

/**
 * Commit every changed file (working tree vs HEAD, see changedFiles) except the excluded ones,
 * on `branch`, with `message` used verbatim (trimmed). Stages with ONE `git.add` call for all
 * additions/modifications plus `git.remove` per deletion, then commits HEAD's tree with only the
 * staged paths rewritten (see updateTree). Nothing left to commit → error; an empty repository
 * gets its first commit on `branch`.
 */
export async function commitChanges(
  dir: string,
  opts: {
    branch: string;
    message: string;
    excludeFiles: string[];
    preexisting?: PreexistingChanges;
    env?: NodeJS.ProcessEnv;
    /** told the commit's hash once its objects are durable, before the branch moves to it */
    beforeRef?: (hash: string) => void;
  },
): Promise<CommitResult> {
  const root = await findRepoRoot(dir);
  // whoever wrote it (the user, a reviewer, a draft from the request), a commit message is inert text
  const message = inertText(opts.message).trim();
  if (!message) throw new EmptyCommitMessage({});
  const excludes = normalizeExcludes(root, opts.excludeFiles);
  const author = await resolveAuthor(root, opts.env);
  await ensureFeatureBranch(root, opts.branch, { allowEmpty: true });
  const changes = await changedFiles(root);
  const { own, untouched } = runOwnChanges(root, changes, opts.preexisting ?? []);
  const { excluded, notes } = applyExcludes(
    own.map((c) => c.path),
    excludes,
  );
  const staged = own.filter((c) => !excluded.has(c.path));
  if (!staged.length) {
    throw new NothingToCommit({ root, changed: changes.length, excluded: own.length, preexisting: untouched.length });
  }
  const fs = gitFs(root);
  const cache = {};
  try {
    // an excluded path the user staged earlier must not ride along in the index
    for (const c of own) if (excluded.has(c.path)) await git.resetIndex({ fs, dir: root, filepath: c.path, cache }).catch(() => {});
    const adds = staged.filter((c) => c.status !== "deleted").map((c) => c.path);
    // force: the list is already filtered; tracked files under ignored folders must still be staged
    if (adds.length) await git.add({ fs, dir: root, filepath: adds, cache, force: true });
    for (const c of staged) if (c.status === "deleted") await git.remove({ fs, dir: root, filepath: c.path, cache });
    // the commit is HEAD plus exactly the staged set, with blob ids as the index now records them
    const index = readIndexFile(join(gitDirs(root).gitdir, "index"), 0).entries;
    const treeChanges: TreeChange[] = staged.map((c) => {
      const e = c.status === "deleted" ? undefined : index.get(c.path);
      if (c.status !== "deleted" && !e) throw new Error(`${c.path} is missing from the index after staging`);
      return { path: c.path, oid: e ? e.oid : null, mode: e ? e.mode : 0 };
    });
    const head = await headCommit(root);
    const baseTree = head ? (await git.readCommit({ fs, dir: root, oid: head, cache })).commit.tree : null;
    const tree = await updateTree(fs, root, baseTree, treeChanges, cache);
    const parents = head ? [head] : [];
    const hash = await writeVerifiedCommit(fs, root, { tree, parents, baseTree, message, author, branch: opts.branch, beforeRef: opts.beforeRef }, cache);
    return {
      hash,
      short: hash.slice(0, 7),
      files: staged.map((c) => c.path),
      leftAlone: untouched,
      excluded: own.filter((c) => excluded.has(c.path)).map((c) => c.path),
      notes,
    };
  } catch (e) {
    throw wrapGitError(e, "commit", root);
  }
}

/**
 * Write the commit object, read back everything it adds (see verifyNewCommit), make the
 * objects durable (flushDeferred), and only then move the branch: a crash, a full disk or a
 * power loss before that leaves the branch where it was.
 */
async function writeVerifiedCommit(
  fs: any,
  root: string,
  o: { tree: string; parents: string[]; baseTree: string | null; message: string; author: Author; branch: string; beforeRef?: (hash: string) => void },
  cache: object,
): Promise<string> {
  const timestamp = Math.floor(Date.now() / 1000);
  const who = { ...o.author, timestamp, timezoneOffset: new Date(timestamp * 1000).getTimezoneOffset() };
  const hash = await git.writeCommit({ fs, dir: root, commit: { tree: o.tree, parent: o.parents, author: who, committer: who, message: o.message + "\n" } });
  await verifyNewCommit(fs, root, gitDirs(root).commondir, { commit: hash, tree: o.tree, parents: o.parents, baseTree: o.baseTree }, cache);
  await flushDeferred();
  o.beforeRef?.(hash);
  await git.writeRef({ fs, dir: root, ref: `refs/heads/${o.branch}`, value: hash, force: true });
  return hash;
}

import * as nodeFs from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sweepDeadTemps, writeFileDurable } from "./atomic-write.ts";
import { looseObjectId, looseObjectIntact } from "./objects.ts";

/** Files that belong to one worktree (live under .git/worktrees/<name>/), not the common dir. */
const PER_WORKTREE =
  /^(HEAD|index|index\.lock|ORIG_HEAD|MERGE_HEAD|MERGE_MSG|FETCH_HEAD|CHERRY_PICK_HEAD|REVERT_HEAD|commondir|gitdir|logs\/HEAD|refs\/worktree\/.*|refs\/bisect\/.*|logs\/refs\/worktree\/.*)$/;

const PASS_THROUGH = ["readFile", "mkdir", "rmdir", "unlink", "lstat", "readdir", "readlink", "symlink", "rm", "chmod"] as const;

/**
 * The fs to hand isomorphic-git for `dir`. Two jobs:
 *
 * - Linked worktrees: isomorphic-git ignores `commondir` and would silently write objects and
 *   refs into .git/worktrees/<name>/; every path under the worktree's gitdir is mapped to the
 *   common .git except the per-worktree files.
 * - Nothing in the git dir is ever half written: isomorphic-git writes objects, refs and the
 *   index in place, and skips an object that exists on retry. Here every write under the git
 *   dir goes to a temp file that is renamed into place (objects as git does: read-only, temp
 *   file in the object's own folder). Refs are fsynced before the rename; objects are fsynced
 *   together by flushDeferred() before a ref points at them (commit.ts). An existing loose
 *   object counts as present only when it inflates and hashes to its id — a torn one (an old
 *   crash, a power loss before the flush) is removed so it is written again.
 */
export function gitFs(dir: string): any {
  const dirs = gitDirsOf(dir);
  if (!dirs) return nodeFs;
  const { gitdir, common } = dirs;
  const prefix = gitdir + "/";
  const map = (p: unknown): unknown => {
    if (typeof p !== "string" || gitdir === common || !p.startsWith(prefix)) return p;
    const rel = p.slice(prefix.length);
    return PER_WORKTREE.test(rel) ? p : join(common, rel);
  };
  const inGitDir = (p: string) => p.startsWith(gitdir + "/") || p.startsWith(common + "/");
  const promises: Record<string, unknown> = {};
  for (const k of PASS_THROUGH) promises[k] = (p: unknown, ...rest: unknown[]) => (nodeFs.promises as any)[k](map(p), ...rest);
  promises.writeFile = async (p: unknown, data: string | Uint8Array, options?: any) => {
    const real = map(p);
    if (typeof real !== "string" || !inGitDir(real)) return nodeFs.promises.writeFile(real as string, data, options);
    if (looseObjectId(real)) {
      sweepDeadTemps(dirname(real));
      return writeFileDurable(real, data, options, { mode: 0o444, sync: "later" });
    }
    if (real === join(gitdir, "index")) return writeFileDurable(real, data, options, { sync: "none" });
    // refs and logs: the temp file must not sit in a folder git lists as refs
    const tempDir = /\/(refs|logs)\//.test(real) ? (real.startsWith(common + "/") ? common : gitdir) : undefined;
    return writeFileDurable(real, data, options, tempDir ? { tempDir } : {});
  };
  promises.stat = async (p: unknown, ...rest: unknown[]) => {
    const real = map(p) as string;
    const st = await (nodeFs.promises.stat as any)(real, ...rest);
    const oid = typeof real === "string" ? looseObjectId(real) : null;
    if (oid && st.isFile() && !(await looseObjectIntact(real, oid))) {
      // a torn object must not count as present: isomorphic-git would skip writing it again
      await nodeFs.promises.rm(real, { force: true });
      throw Object.assign(new Error(`ENOENT: torn object removed, stat '${real}'`), { code: "ENOENT", path: real });
    }
    return st;
  };
  return { promises };
}

/** The per-worktree git dir and the common dir of `dir`'s repository; null when `dir` has no .git. */
function gitDirsOf(dir: string): { gitdir: string; common: string } | null {
  const dotgit = join(resolve(dir), ".git");
  try {
    if (nodeFs.statSync(dotgit).isDirectory()) return { gitdir: dotgit, common: dotgit };
    const gitdir = resolve(
      dir,
      nodeFs
        .readFileSync(dotgit, "utf8")
        .trim()
        .replace(/^gitdir:\s*/, ""),
    );
    let common = gitdir;
    try {
      common = resolve(gitdir, nodeFs.readFileSync(join(gitdir, "commondir"), "utf8").trim());
    } catch {
      // a `.git` file pointing at a separate git dir (git init --separate-git-dir)
    }
    return { gitdir, common };
  } catch {
    return null;
  }
}

/** True when `dir` is a linked worktree (its .git is a file). */
export function isLinkedWorktree(dir: string): boolean {
  try {
    return nodeFs.statSync(join(dir, ".git")).isFile();
  } catch {
    return false;
  }
}

import * as git from "isomorphic-git";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { AgentmuxError } from "../../errors.ts";
import { GitOperationFailed, NotAGitRepo } from "./errors.ts";
import { gitFs } from "./fs.ts";
import { systemCode, withSystemCode } from "../fs/io-error.ts";

/** The working tree root that contains `dir` (a main checkout or a linked worktree). */
export async function findRepoRoot(dir: string): Promise<string> {
  const start = resolve(dir);
  for (let d = start; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return d;
    if (dirname(d) === d) break;
  }
  throw new NotAGitRepo({ start });
}

export { gitDirs, type GitDirs } from "./dirs.ts";

/** The commit HEAD points at, or null in a repository without commits. */
export async function headCommit(dir: string): Promise<string | null> {
  const root = await findRepoRoot(dir);
  try {
    return await git.resolveRef({ fs: gitFs(root), dir: root, ref: "HEAD" });
  } catch (e) {
    if ((e as { code?: string }).code === "NotFoundError") return null;
    throw wrapGitError(e, "resolve HEAD", root);
  }
}

/** The checked-out branch name, or null when HEAD is detached. */
export async function currentBranch(dir: string): Promise<string | null> {
  const root = await findRepoRoot(dir);
  const b = await git.currentBranch({ fs: gitFs(root), dir: root, fullname: false, test: false });
  return b ?? null;
}

/** Turn an isomorphic-git exception into GitOperationFailed naming the operation (named errors pass through). */
export function wrapGitError(e: unknown, operation: string, root: string): AgentmuxError {
  if (e instanceof AgentmuxError) return e;
  // isomorphic-git's add of many files throws one MultipleGitError holding the real ones
  const errors = (e as { errors?: unknown[] })?.errors;
  const first = Array.isArray(errors) && errors.length ? errors[0] : e;
  return new GitOperationFailed({ operation, detail: withSystemCode(first), root, code: systemCode(first) }, { cause: e });
}

/** Whether the repository has a remote of this name (`origin`). */
export async function hasRemote(root: string, name: string): Promise<boolean> {
  const remotes = await git.listRemotes({ fs: gitFs(root), dir: root }).catch(() => []);
  return remotes.some((r) => r.remote === name);
}

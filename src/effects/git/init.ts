import * as nodeFs from "node:fs";
import git from "isomorphic-git";
import type { Author } from "./author.ts";

/**
 * A new repository at `dir` on branch `branch` whose first commit holds `files` (already
 * written there), with `author` as its local user.
 */
export async function initWithCommit(dir: string, o: { branch: string; files: string[]; author: Author; message: string }): Promise<void> {
  await git.init({ fs: nodeFs, dir, defaultBranch: o.branch });
  await git.setConfig({ fs: nodeFs, dir, path: "user.name", value: o.author.name });
  await git.setConfig({ fs: nodeFs, dir, path: "user.email", value: o.author.email });
  await git.add({ fs: nodeFs, dir, filepath: o.files });
  await git.commit({ fs: nodeFs, dir, message: o.message, author: o.author });
}

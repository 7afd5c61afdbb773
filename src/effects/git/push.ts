import * as git from "isomorphic-git";
import { gitFs } from "./fs.ts";
import { firstError, gitCliAvailable, runGit, type Runner } from "./proc.ts";
import { runProcess } from "../process/run.ts";
import { findRepoRoot } from "./repo.ts";

export type PushResult = { ok: true } | { ok: false; error: string };

/**
 * Push `branch` to `remote` (default origin) and set its upstream. Uses the git CLI when it is
 * on PATH (SSH, file and any other remote, the user's credential helpers); without it,
 * isomorphic-git's HTTP push with the token from `gh auth token`, for HTTPS remotes only.
 * Never throws: every failure comes back as { ok: false, error }.
 */
export async function pushBranch(dir: string, branch: string, opts: { remote?: string; useCli?: boolean; run?: Runner } = {}): Promise<PushResult> {
  const remote = opts.remote ?? "origin";
  const run = opts.run ?? runProcess;
  try {
    const root = await findRepoRoot(dir);
    // no such remote: said plainly, not as git's "Could not read from remote repository"
    const url = await git.getConfig({ fs: gitFs(root), dir: root, path: `remote.${remote}.url` });
    if (typeof url !== "string" || !url) return { ok: false, error: noRemote(remote) };
    if (opts.useCli ?? gitCliAvailable()) {
      const r = await runGit(root, ["push", "-u", remote, `refs/heads/${branch}:refs/heads/${branch}`], run);
      return r.code === 0 ? { ok: true } : { ok: false, error: `git push ${remote} ${branch} failed: ${firstError(r)}` };
    }
    return await pushWithoutCli(root, branch, remote, url, run);
  } catch (e) {
    return { ok: false, error: `push of ${branch} to ${remote} failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

const noRemote = (remote: string) => `there is no remote "${remote}" to push to (git remote add ${remote} <url>)`;

/** The push without the git CLI, to `remote` at `url` (its configured URL). */
async function pushWithoutCli(root: string, branch: string, remote: string, url: string, run: Runner): Promise<PushResult> {
  const fs = gitFs(root);
  if (!/^https?:\/\//.test(url)) {
    return { ok: false, error: `pushing to ${url} needs the git CLI on PATH; without it only HTTPS remotes can be pushed` };
  }
  const tok = await run(["gh", "auth", "token"]);
  const token = tok.code === 0 ? tok.stdout.trim() : "";
  const http = (await import("isomorphic-git/http/node")).default;
  const res = await git.push({
    fs,
    http,
    dir: root,
    remote,
    ref: branch,
    remoteRef: branch,
    onAuth: () => (token ? { username: "x-access-token", password: token } : { cancel: true }),
  });
  if (!res.ok) return { ok: false, error: `push of ${branch} to ${remote} was rejected: ${res.error ?? "unknown error"}` };
  await git.setConfig({ fs, dir: root, path: `branch.${branch}.remote`, value: remote });
  await git.setConfig({ fs, dir: root, path: `branch.${branch}.merge`, value: `refs/heads/${branch}` });
  return { ok: true };
}

import { join } from "node:path";
import type { Config } from "../schema/config.ts";
import type { State } from "../schema/state.ts";
import { writeSessionFile } from "../session/file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { resolveBaseRef, type BaseRef } from "../effects/git/base-ref.ts";
import { listFiles } from "../effects/git/errors.ts";
import { pullBaseBranch } from "../effects/git/pull-base.ts";
import { snapshotUncommitted } from "../effects/git/preexisting.ts";
import { sessionLogger } from "../effects/log.ts";
import { deleteBranchAt, freeBranchName, returnToStart, startRefOf, switchToNewBranch } from "../effects/git/run-branch.ts";
import { createWorktree, removeWorktree, worktreesDir } from "../effects/git/worktree.ts";
import { writeState } from "../session/write.ts";
import { F } from "../protocol/paths.ts";
import { withFileLockAsync } from "../effects/fs/lock.ts";
import { gitDirs } from "../effects/git/dirs.ts";
import { runEnv } from "../session/run-env.ts";
import { freePortOffset, pruneOrphanWorktrees } from "./prune.ts";
import { copyIntoWorktree, runWorktreeSetup } from "./worktree-setup.ts";
import { ownOutputFiles, withOwnOutput } from "./own-output.ts";

export type CheckoutInput = {
  projectDir: string;
  sessionDir: string;
  state: State;
  config: Config;
  worktree: boolean;
  /** fetch and fast-forward the base branch from origin first (`agentmux issue`) */
  pullBase?: boolean;
  out: (line: string) => void;
};

/**
 * Where a new run works, on its own new branch made from the base branch (github.base_branch,
 * else the repository's default branch):
 * - `--worktree`: a fresh linked worktree; the user's checkout is not touched;
 * - in place: the checkout switches to the new branch, carrying uncommitted files along; those
 *   files are recorded (F.preexisting) and left out of the run's commit unless the run changes
 *   them, and after the commit the checkout goes back to the branch it was on (state.start_ref).
 * The branch name is never one that exists already (`-2`, `-3`, … are tried), so a run never
 * adds its commit to someone else's branch. Everything is said on screen.
 */
export async function prepareCheckout(o: CheckoutInput): Promise<State> {
  let base = await resolveBaseRef(o.projectDir, o.config.github.base_branch);
  if (o.pullBase && base) {
    o.out((await pullBaseBranch(o.projectDir, base.name)).line);
    base = await resolveBaseRef(o.projectDir, o.config.github.base_branch);
  }
  const wanted = `${o.config.github.branch_prefix}${o.state.feature_name}`;
  // Two runs starting together must not both find the same free branch name or port offset:
  // the name is chosen and the branch made, the offset chosen and recorded, under one lock.
  const made = await withFileLockAsync(startLockPath(o.projectDir), async () => {
    const branch = await freeBranchName(o.projectDir, wanted);
    if (branch !== wanted) o.out(`agentmux: a branch ${wanted} exists already; this run uses ${branch}`);
    const withPort = { ...o, state: { ...o.state, port_offset: await freePortOffset(o.projectDir) } };
    writeState(o.sessionDir, withPort.state);
    return o.worktree ? inWorktree(withPort, branch, base, branch.slice(wanted.length)) : inPlace(withPort, branch, base);
  });
  if (!made.worktree_path) return made;
  try {
    await setUpWorktree(o, made.worktree_path, made);
  } catch (e) {
    await undoCheckout(o.projectDir, made).catch(() => {}); // no agent ran: nothing to keep
    throw e;
  }
  return made;
}

/** Held while a new run picks and makes its branch and picks its port offset (the common git dir: one per repository). */
export const startLockPath = (projectDir: string) => join(gitDirs(projectDir).commondir, "agentmux-start.lock");

async function inWorktree(o: CheckoutInput, branch: string, base: BaseRef | null, suffix: string): Promise<State> {
  const slug = `${o.state.feature_name}${suffix}`;
  // Reserve the path in state first, so a run starting next door never prunes it mid-creation.
  let state: State = { ...o.state, worktree_path: join(worktreesDir(o.projectDir), slug), main_repo_dir: o.projectDir, feature_branch: branch };
  writeState(o.sessionDir, state);
  await pruneOrphanWorktrees(o.projectDir, o.out);
  const wt = await createWorktree(o.projectDir, { slug, branch, ...(base ? { from: base.oid } : {}) });
  if (base) o.out(`agentmux: worktree ${wt.path} on ${branch}, from ${base.name}`);
  state = { ...state, worktree_path: wt.path, ...(wt.baseCommit ? { base_commit: wt.baseCommit } : {}) };
  writeState(o.sessionDir, state);
  return state;
}

/**
 * `worktree.copy` then `worktree.setup`, before any agent starts. What they leave in the
 * worktree (copied files, generated ones) is recorded like a checkout's uncommitted files: left
 * out of the run's commit unless the run changes them.
 */
async function setUpWorktree(o: CheckoutInput, worktree: string, state: State): Promise<void> {
  const { copy, setup } = o.config.worktree;
  if (copy.length) {
    const r = copyIntoWorktree(o.projectDir, worktree, copy);
    if (r.copied.length) o.out(`agentmux: copied into the worktree: ${listFiles(r.copied)}`);
    if (r.kept.length) o.out(`agentmux: not copied (git already put them in the worktree): ${listFiles(r.kept)}`);
    if (r.refused.length) o.out(`agentmux: not copied (a symlink is in the way; nothing is written through one): ${listFiles(r.refused)}`);
    if (!r.copied.length && !r.kept.length && !r.refused.length) o.out(`agentmux: worktree.copy matched no file in ${o.projectDir}`);
  }
  if (setup.length) {
    o.out(`agentmux: setting up the worktree: ${setup.length} command(s) (output in ${join(o.sessionDir, F.setupLogsDir)})`);
    await runWorktreeSetup(worktree, o.config.worktree, runEnv(state), sessionLogger(o.sessionDir), join(o.sessionDir, F.setupLogsDir));
  }
  if (copy.length || setup.length) writeSessionFile(o.sessionDir, SESSION_FILES.preexisting, await snapshotUncommitted(worktree));
}

async function inPlace(o: CheckoutInput, branch: string, base: BaseRef | null): Promise<State> {
  const start = await startRefOf(o.projectDir);
  const preexisting = withOwnOutput(await snapshotUncommitted(o.projectDir), ownOutputFiles(o.projectDir));
  writeSessionFile(o.sessionDir, SESSION_FILES.preexisting, preexisting);
  const from = await switchToNewBranch(o.projectDir, branch, base);
  const here = start.branch ?? (start.commit ? `the detached commit ${start.commit.slice(0, 7)}` : "an unborn branch");
  if (!base) o.out(`agentmux: no base branch found (github.base_branch is not set; no main or master): ${branch} starts from ${here}`);
  else if (start.branch !== base.name)
    o.out(`agentmux: ${branch} starts from ${base.name}, not from ${here}; your checkout goes back to ${here} after the commit`);
  if (preexisting.length) {
    o.out(
      `agentmux: ${preexisting.length} uncommitted file(s) were already here (${listFiles(
        preexisting.map((p) => p.path),
        3,
      )}): ` + "they stay in your working tree and are left out of this run's commit unless the run changes them",
    );
  }
  return { ...o.state, feature_branch: branch, base_commit: from, start_ref: start };
}

/**
 * A start that failed after prepareCheckout: put the checkout back on its start branch and
 * delete the run's branch (it has no commit of its own yet) or its worktree.
 */
export async function undoCheckout(projectDir: string, state: State): Promise<void> {
  if (!state.feature_branch) return;
  if (state.worktree_path) {
    await removeWorktree(projectDir, state.worktree_path).catch(() => {});
  } else if (state.start_ref) {
    const back = await returnToStart(projectDir, state.start_ref);
    if (!back.ok) return; // the checkout is still on the run's branch: keep it
  } else return;
  await deleteBranchAt(projectDir, state.feature_branch, state.base_commit ?? null);
}

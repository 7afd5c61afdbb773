import * as git from "isomorphic-git";
import { join, resolve } from "node:path";
import { readFileSync } from "node:fs";
import { writeFileAtomic, writeJsonAtomic } from "../fs/atomic.ts";
import { createPullRequest } from "../gh.ts";
import { LastCompletion, type Approval } from "../../schema/artifacts/completion.ts";
import { F, LAST_COMPLETION } from "../../protocol/paths.ts";
import { commitChanges } from "./commit.ts";
import { NothingToCommit } from "./errors.ts";
import { gitFs } from "./fs.ts";
import { draftCommitMessage, fitCommitMessage } from "./message.ts";
import type { PreexistingChanges } from "./preexisting.ts";
import { pushBranch } from "./push.ts";
import { findRepoRoot } from "./repo.ts";
import { returnToStart, type StartRef } from "./run-branch.ts";
import type { Runner } from "./proc.ts";

export type CompleteApprovalInput = {
  /** the branch's commit when the run started: a later tip means an earlier attempt committed */
  baseCommit?: string;
  /** where the code lives: the project, or its worktree */
  workDir: string;
  /** the main checkout: `.agentmux/.last_completion.json` goes here */
  mainRepoDir: string;
  /** the session folder (kept by the caller when this throws) */
  sessionDir: string;
  featureName: string;
  branch: string;
  approval: Approval;
  draft: { requirements?: string; planOverview?: string; issueNumber?: number; suggested?: string };
  /** lines added at the end of the message whatever its source (the checks agentmux ran) */
  trailer?: string;
  /** github.push */
  push: boolean;
  /** github.pull_request, and whether gh was found logged in at start */
  pullRequest: {
    enabled: boolean;
    ghAvailable?: boolean;
    /** a fix round on a pull request that exists: push to its branch, never open a second one */
    existingUrl?: string | null;
    base: string | null;
    draft: boolean;
    body: string;
    title: string;
  };
  /** uncommitted files from before the run: left out of the commit unless the run changed them */
  preexisting?: PreexistingChanges;
  /** in-place runs: where the user's checkout was; it goes back there after the commit */
  returnTo?: StartRef;
  /** process runner for gh / git push (tests) */
  run?: Runner;
};

/**
 * `warnings`: what went wrong after the commit (push or PR failed; the commit stays).
 * `notes`: every step that was skipped or changed, with why — said on screen and logged.
 */
export type CompleteApprovalResult = { hash: string; short: string; branch: string; prUrl: string | null; warnings: string[]; notes: string[] };

/**
 * The approval flow: message (approval's, else the reviewer's suggestion, else a drafted one;
 * cut to a sensible size), commit on the feature branch, then push and pull request when
 * enabled — their failures are warnings and the commit stays — then the user's checkout goes
 * back where it was, and finally `.last_completion.json`, written atomically.
 * A failed commit throws (a named git error) and writes nothing.
 */
export async function completeApproval(o: CompleteApprovalInput): Promise<CompleteApprovalResult> {
  const chosen =
    nonBlank(o.approval.commit_message) ??
    nonBlank(o.draft.suggested) ??
    draftCommitMessage({
      requirements: o.draft.requirements,
      planOverview: o.draft.planOverview,
      featureSlug: o.featureName,
      issueNumber: o.draft.issueNumber,
    });
  const message = fitCommitMessage(o.trailer?.trim() ? `${chosen.trim()}\n\n${o.trailer.trim()}` : chosen);
  const warnings: string[] = [];
  const notes: string[] = [];
  let commit: { hash: string; short: string };
  try {
    const r = await commitChanges(o.workDir, {
      branch: o.branch,
      message,
      excludeFiles: o.approval.exclude_files,
      ...(o.preexisting ? { preexisting: o.preexisting } : {}),
      beforeRef: (hash) => writeFileAtomic(join(o.sessionDir, F.commitMade), hash + "\n"),
    });
    commit = r;
    notes.push(...r.notes);
    if (r.excluded.length) {
      // a --worktree run keeps its worktree for them (daemon/main.ts): leaving a file out is not deleting it
      const where = resolve(o.workDir) === resolve(o.mainRepoDir) ? "your working tree" : `the worktree ${o.workDir}, which is kept`;
      notes.push(
        `left out of the commit as you chose: ${r.excluded.slice(0, 3).join(", ")}${r.excluded.length > 3 ? `, … (${r.excluded.length} files)` : ""}; uncommitted in ${where}`,
      );
    }
    if (r.leftAlone.length)
      notes.push(
        `left out of the commit: ${r.leftAlone.length} file(s) that were uncommitted before the run and unchanged by it (${r.leftAlone.slice(0, 3).join(", ")}${r.leftAlone.length > 3 ? ", …" : ""})`,
      );
  } catch (e) {
    // Idempotent after a crash: this session made the commit (its record says so), then died
    // before recording the outcome. A tip someone else put on the branch is never taken for it.
    const tip = o.baseCommit && e instanceof NothingToCommit ? await branchTip(o.workDir, o.branch) : null;
    if (!(tip && tip !== o.baseCommit && tip === commitMadeBy(o.sessionDir))) throw e;
    commit = { hash: tip, short: tip.slice(0, 7) };
    warnings.push(`the commit ${commit.short} was made before a restart; it is reused`);
  }
  let pushed = false;
  if (!o.push) notes.push("not pushed: github.push is false");
  else {
    const p = await pushBranch(o.workDir, o.branch, { run: o.run });
    if (p.ok) pushed = true;
    else warnings.push(`${p.error} (commit ${commit.short} is kept on ${o.branch})`);
  }
  let prUrl: string | null = o.pullRequest.existingUrl ?? null;
  if (prUrl) notes.push(`the pull request ${prUrl} exists: no second one is opened`);
  else if (!o.pullRequest.enabled) notes.push("no pull request: github.pull_request is false");
  else if (o.pullRequest.ghAvailable === false) notes.push("no pull request: gh is not installed or not logged in (gh auth login)");
  else if (!o.push) notes.push("no pull request: github.push is false, so the branch is not on GitHub");
  else if (!pushed) warnings.push("pull request not created: the branch could not be pushed");
  else {
    const pr = await createPullRequest(
      { cwd: o.workDir, title: o.pullRequest.title, body: o.pullRequest.body, base: o.pullRequest.base, head: o.branch, draft: o.pullRequest.draft },
      o.run,
    );
    if (pr.ok) prUrl = pr.url;
    else warnings.push(`${pr.error} (commit ${commit.short} is kept on ${o.branch})`);
  }
  if (o.returnTo) {
    const back = await returnToStart(o.workDir, o.returnTo);
    if (back.ok) notes.push(`your checkout is back on ${back.where}; the commit is on ${o.branch}`);
    else warnings.push(`the checkout stays on ${o.branch}: ${back.error}`);
  }
  const record = LastCompletion.parse({
    feature_name: o.featureName.replace(/^\d{8}-\d{6}-/, ""),
    commit_hash: commit.short,
    pr_url: prUrl,
    branch_name: o.branch,
  });
  writeJsonAtomic(join(o.mainRepoDir, LAST_COMPLETION), record);
  return { hash: commit.hash, short: commit.short, branch: o.branch, prUrl, warnings, notes };
}

function commitMadeBy(sessionDir: string): string | null {
  try {
    return readFileSync(join(sessionDir, F.commitMade), "utf8").trim() || null;
  } catch {
    return null;
  }
}

async function branchTip(dir: string, branch: string): Promise<string | null> {
  const root = await findRepoRoot(dir);
  return git.resolveRef({ fs: gitFs(root), dir: root, ref: `refs/heads/${branch}` }).catch(() => null);
}

function nonBlank(s: string | undefined): string | undefined {
  return s && s.trim() ? s.trim() : undefined;
}

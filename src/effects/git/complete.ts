import { headCommit } from "./repo.ts";
import { NothingToCommit } from "./errors.ts";
import { join } from "node:path";
import { writeJsonAtomic } from "../fs/atomic.ts";
import { createPullRequest } from "../gh.ts";
import { LastCompletion, type Approval } from "../../schema/artifacts/completion.ts";
import { LAST_COMPLETION } from "../../session/paths.ts";
import { commitChanges } from "./commit.ts";
import { draftCommitMessage } from "./message.ts";
import { pushBranch } from "./push.ts";
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
  push: boolean;
  pullRequest: { enabled: boolean; base: string | null; draft: boolean; body: string; title: string };
  /** process runner for gh / git push (tests) */
  run?: Runner;
};

export type CompleteApprovalResult = { hash: string; short: string; branch: string; prUrl: string | null; warnings: string[] };

/**
 * The approval flow: message (approval's, else the reviewer's suggestion, else a drafted one),
 * commit on the feature branch, then push and pull request when enabled — their failures are
 * warnings and the commit stays — and finally `.last_completion.json`, written atomically.
 * A failed commit throws (a named git error) and writes nothing.
 */
export async function completeApproval(o: CompleteApprovalInput): Promise<CompleteApprovalResult> {
  const message =
    nonBlank(o.approval.commit_message) ??
    nonBlank(o.draft.suggested) ??
    draftCommitMessage({ requirements: o.draft.requirements, planOverview: o.draft.planOverview, featureSlug: o.featureName, issueNumber: o.draft.issueNumber });
  const warnings: string[] = [];
  let commit: { hash: string; short: string };
  try {
    commit = await commitChanges(o.workDir, { branch: o.branch, message, excludeFiles: o.approval.exclude_files });
  } catch (e) {
    // Idempotent after a crash: the commit was made, the orchestrator died before recording it.
    const tip = o.baseCommit ? await headCommit(o.workDir) : null;
    if (!(e instanceof NothingToCommit && tip && tip !== o.baseCommit)) throw e;
    commit = { hash: tip, short: tip.slice(0, 7) };
    warnings.push(`the commit ${commit.short} was made before a restart; it is reused`);
  }
  let pushed = false;
  if (o.push) {
    const p = await pushBranch(o.workDir, o.branch, { run: o.run });
    if (p.ok) pushed = true;
    else warnings.push(`${p.error} (commit ${commit.short} is kept on ${o.branch})`);
  }
  let prUrl: string | null = null;
  if (o.pullRequest.enabled) {
    if (o.push && !pushed) {
      warnings.push("pull request not created: the branch could not be pushed");
    } else {
      const pr = await createPullRequest(
        { cwd: o.workDir, title: o.pullRequest.title, body: o.pullRequest.body, base: o.pullRequest.base, head: o.branch, draft: o.pullRequest.draft },
        o.run,
      );
      if (pr.ok) prUrl = pr.url;
      else warnings.push(`${pr.error} (commit ${commit.short} is kept on ${o.branch})`);
    }
  }
  const record = LastCompletion.parse({
    feature_name: o.featureName.replace(/^\d{8}-\d{6}-/, ""),
    commit_hash: commit.short,
    pr_url: prUrl,
    branch_name: o.branch,
  });
  writeJsonAtomic(join(o.mainRepoDir, LAST_COMPLETION), record);
  return { hash: commit.hash, short: commit.short, branch: o.branch, prUrl, warnings };
}

function nonBlank(s: string | undefined): string | undefined {
  return s && s.trim() ? s.trim() : undefined;
}

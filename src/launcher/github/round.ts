import { PR_MARKER, replyToReviewComment, reviewComments } from "../../effects/gh.ts";
import { checkoutRemoteBranch } from "../../effects/git/fetch.ts";
import type { Runner } from "../../effects/git/proc.ts";
import type { GhPullRequest } from "../../schema/github.ts";
import type { ReviewRound } from "../start.ts";
import { findingsMarkdown, roundRequest } from "./request.ts";
import type { Trigger } from "./trigger.ts";

export type PreparedRound = { round: ReviewRound; request: string; pr: GhPullRequest; threads: number[] };

/** Why a review on `pr` starts no round, or null when it does. */
export function roundRefusal(pr: GhPullRequest, repo: string): string | null {
  if (!pr.body.includes(PR_MARKER)) return `pull request #${pr.number} was not opened by agentmux`;
  if (pr.state && pr.state !== "open") return `pull request #${pr.number} is ${pr.state}`;
  if (pr.head.repo?.full_name.toLowerCase() !== repo.toLowerCase()) {
    return `pull request #${pr.number} comes from another repository (${pr.head.repo?.full_name ?? "deleted"}); its branch cannot be pushed from here`;
  }
  return null;
}

/**
 * A review on a pull request agentmux opened (checked by roundRefusal) becomes a fix round on
 * the pull request's branch: the findings (file, line, text) are collected and the branch is
 * fetched and checked out.
 */
export async function prepareRound(
  t: Extract<Trigger, { kind: "round" }>,
  pr: GhPullRequest,
  o: { repo: string; cwd: string; phrase: string; run?: Runner },
): Promise<PreparedRound> {
  const comments =
    t.source.type === "review" ? (await reviewComments(o.repo, pr.number, t.source.review, o.run)).filter((c) => c.in_reply_to_id === undefined) : [];
  const findings = findingsMarkdown({ pr: pr.number, actor: t.actor, source: t.source, comments, phrase: o.phrase });
  await checkoutRemoteBranch(o.cwd, pr.head.ref, { run: o.run });
  const threads = t.source.type === "review_comment" ? [t.source.comment.id] : comments.map((c) => c.id);
  return { round: { branch: pr.head.ref, pullRequestUrl: pr.html_url, findings }, request: roundRequest(pr), pr, threads };
}

/** One reply in each review thread the round worked on; failures are logged, not fatal. */
export async function replyInThreads(o: { repo: string; pr: number; threads: number[]; body: string; log: (l: string) => void; run?: Runner }): Promise<void> {
  for (const id of o.threads) {
    await replyToReviewComment(o.repo, o.pr, id, o.body, o.run).catch((e) =>
      o.log(`agentmux: could not reply to review comment ${id}: ${(e as Error).message}`),
    );
  }
}

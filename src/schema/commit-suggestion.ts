import type { ReviewResult } from "./state.ts";

/**
 * The commit message the reviewers suggest: the first non-blank one, reviewers taken in the
 * order of their role names (not the order their results came in), trimmed; undefined when
 * none suggested one. The orchestrator passes it to the commit; the approval panel and the web
 * page prefill it (session/commit-message.ts).
 */
export function reviewerCommitMessage(results: Record<string, Pick<ReviewResult, "commit_message">> | undefined): string | undefined {
  for (const role of Object.keys(results ?? {}).sort()) {
    const m = results![role]?.commit_message?.trim();
    if (m) return m;
  }
  return undefined;
}

import type { State } from "../schema/state.ts";

/**
 * The review loop's one count, as the panes name it: reviewers work on "round N" (review
 * round N = review_iteration + 1: review_iteration counts the fix rounds so far), and fix
 * round N (the pane "[coder] fix round N") addresses the findings of review round N.
 */
export type ReviewRoundState = Pick<State, "phase" | "review_iteration">;

/** The review round whose verdicts are shown: while fixing, the round that failed. */
export function reviewRound(s: ReviewRoundState): number {
  return s.phase === "fixing" ? s.review_iteration : s.review_iteration + 1;
}

/** "fix round 2" while fixing, else "review round 3"; nothing before the first fix round. */
export function reviewLoopLabel(s: ReviewRoundState): string | undefined {
  if (s.review_iteration <= 0) return undefined;
  return s.phase === "fixing" ? `fix round ${s.review_iteration}` : `review round ${reviewRound(s)}`;
}

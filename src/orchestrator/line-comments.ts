import { anchorLines, projectPath, type Review } from "../schema/artifacts/review.ts";
import { reviewerShort, type ReviewerRole } from "../schema/catalog.ts";
import type { ReviewComment } from "../schema/state.ts";

/** A path the review check let through (a project path) in its one spelling; as written otherwise. */
const clean = (file: string) => projectPath(file) ?? file.trim();

/**
 * A review's line comments as the run keeps them: numbered per reviewer across rounds
 * (`logic-1`, `logic-2`, …), so an id means one comment for the whole run.
 */
export function commentsOfReview(role: ReviewerRole, review: Review, round: number, existing: readonly ReviewComment[]): ReviewComment[] {
  const prefix = reviewerShort(role);
  let n = existing.filter((c) => c.id.startsWith(`${prefix}-`)).length;
  return (review.comments ?? []).map((c) => {
    const { start, end } = anchorLines(c);
    return {
      id: `${prefix}-${++n}`,
      reviewer: role,
      round,
      blocking: review.verdict === "fail",
      file: clean(c.file),
      start_line: start,
      end_line: end,
      severity: c.severity,
      body: c.body.trim(),
      ...(c.suggestion?.trim() ? { suggestion: c.suggestion.replace(/\s+$/, "") } : {}),
    };
  });
}

/** `src/a.ts line 4` / `src/a.ts lines 4–6`. */
export const anchorText = (c: Pick<ReviewComment, "file" | "start_line" | "end_line">) =>
  c.start_line === c.end_line ? `${c.file} line ${c.start_line}` : `${c.file} lines ${c.start_line}–${c.end_line}`;

/** The comments of a review as Markdown lines (its archive, fix_request.md), one bullet each. */
export function commentLines(comments: readonly ReviewComment[]): string[] {
  return comments.map((c) => `- [${c.id}] ${anchorText(c)} (${c.severity}): ${c.body.replace(/\s+/g, " ")}`);
}

/** Mark the comments a fix round's fixer addressed (ids of that round only). */
export function markAddressed(all: readonly ReviewComment[], ids: readonly string[], round: number): { comments: ReviewComment[]; marked: string[] } {
  const wanted = new Set(ids);
  const marked: string[] = [];
  const comments = all.map((c) => {
    if (c.round !== round || !wanted.has(c.id)) return c;
    marked.push(c.id);
    return { ...c, addressed_in: round };
  });
  return { comments, marked };
}

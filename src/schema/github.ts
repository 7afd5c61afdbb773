import { z } from "zod";

/**
 * The parts of GitHub's webhook payloads (GITHUB_EVENT_PATH) and REST answers that agentmux
 * reads. Loose objects: GitHub sends many more fields, and new ones must never break a run.
 * Every string in here is untrusted data (titles, bodies, logins): it never reaches a shell.
 */
const text = z
  .string()
  .nullable()
  .optional()
  .transform((s) => s ?? "");

export const GhUser = z.looseObject({ login: z.string(), type: z.string().optional() });
export type GhUser = z.infer<typeof GhUser>;

export const GhIssue = z.looseObject({
  number: z.number().int().positive(),
  title: z.string(),
  body: text,
  user: GhUser,
  html_url: z.string().optional(),
  /** present when the "issue" is a pull request (issue_comment on a PR) */
  pull_request: z.looseObject({ url: z.string().optional() }).nullable().optional(),
});

export const GhComment = z.looseObject({
  id: z.number().int(),
  body: text,
  user: GhUser,
  author_association: z.string().default("NONE"),
  html_url: z.string().optional(),
});

export const GhPullRequest = z.looseObject({
  number: z.number().int().positive(),
  title: z.string(),
  body: text,
  html_url: z.string(),
  state: z.string().optional(),
  user: GhUser.optional(),
  head: z.looseObject({ ref: z.string(), sha: z.string().optional(), repo: z.looseObject({ full_name: z.string() }).nullable().optional() }),
  base: z.looseObject({ ref: z.string() }),
});
export type GhPullRequest = z.infer<typeof GhPullRequest>;

export const GhReview = z.looseObject({
  id: z.number().int(),
  body: text,
  user: GhUser,
  author_association: z.string().default("NONE"),
  html_url: z.string().optional(),
  state: z.string().optional(),
});

/** A line comment of a pull request review (REST and the review-comment webhook share it). */
export const GhReviewComment = GhComment.extend({
  path: z.string(),
  line: z.number().int().nullable().optional(),
  start_line: z.number().int().nullable().optional(),
  original_line: z.number().int().nullable().optional(),
  pull_request_review_id: z.number().int().nullable().optional(),
  in_reply_to_id: z.number().int().optional(),
});
export type GhReviewComment = z.infer<typeof GhReviewComment>;

export const IssuesEvent = z.looseObject({
  action: z.string(),
  issue: GhIssue,
  label: z.looseObject({ name: z.string() }).nullable().optional(),
  assignee: GhUser.nullable().optional(),
  sender: GhUser,
});

export const IssueCommentEvent = z.looseObject({ action: z.string(), issue: GhIssue, comment: GhComment, sender: GhUser });

export const PullRequestReviewEvent = z.looseObject({ action: z.string(), review: GhReview, pull_request: GhPullRequest, sender: GhUser });

export const PullRequestReviewCommentEvent = z.looseObject({
  action: z.string(),
  comment: GhReviewComment,
  pull_request: GhPullRequest,
  sender: GhUser,
});

/** What `gh api` answers when a comment is created or edited. */
export const GhCommentRef = z.looseObject({ id: z.number().int(), html_url: z.string().optional() });
export type GhCommentRef = z.infer<typeof GhCommentRef>;

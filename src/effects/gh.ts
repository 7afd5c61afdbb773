import { z } from "zod";
import { defineError } from "../errors.ts";
import { IssueFetchFailed, NotAnIssueRef, NotARepoSlug } from "./gh-errors.ts";
import { GhCommentRef, GhPullRequest, GhReviewComment } from "../schema/github.ts";
import { firstError } from "./git/proc.ts";
import { runProcess, type Runner } from "./process/run.ts";
import { inertLine, inertText } from "../schema/inert-text.ts";

/** GitHub through the `gh` CLI. Every call goes through an injectable runner. */

/** `gh --version` and `gh auth status` both succeed. */
export async function ghAvailable(run: Runner = runProcess): Promise<boolean> {
  return (await ghProblem(run)) === null;
}

/** Why gh cannot be used: not on PATH (`--version` fails), or not logged in (`auth status` fails, with what it said); null when it can. */
export async function ghProblem(run: Runner = runProcess): Promise<{ problem: "missing" } | { problem: "logged-out"; detail: string } | null> {
  if ((await run(["gh", "--version"])).code !== 0) return { problem: "missing" };
  const auth = await run(["gh", "auth", "status"], { env: { GH_PROMPT_DISABLED: "1", NO_COLOR: "1" } });
  return auth.code === 0 ? null : { problem: "logged-out", detail: firstError(auth) };
}

export type PullRequestInput = { cwd: string; title: string; body: string; base: string | null; head: string; draft: boolean };

/** GitHub refuses a pull request body over 65,536 characters and a title over 256. */
export const PR_BODY_MAX = 60_000;
export const PR_TITLE_MAX = 256;

/**
 * `gh pr create`; the PR URL is the last URL line of its output. Never throws. The body goes on
 * stdin: a description built from a long issue would not fit in one argument (128 KiB on Linux).
 * Title and body are cut to what GitHub accepts.
 */
export async function createPullRequest(pr: PullRequestInput, run: Runner = runProcess): Promise<{ ok: true; url: string } | { ok: false; error: string }> {
  const argv = ["gh", "pr", "create", "--title", cut(inertLine(pr.title).replace(/\s+/g, " ").trim(), PR_TITLE_MAX), "--body-file", "-", "--head", pr.head];
  if (pr.base) argv.push("--base", pr.base);
  if (pr.draft) argv.push("--draft");
  const r = await run(argv, { cwd: pr.cwd, env: { GH_PROMPT_DISABLED: "1", NO_COLOR: "1" }, stdin: cutMiddle(inertText(pr.body), PR_BODY_MAX) });
  if (r.code !== 0) return { ok: false, error: `gh pr create failed: ${firstError(r)}` };
  const url = r.stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^https?:\/\//.test(l))
    .pop();
  return url ? { ok: true, url } : { ok: false, error: `gh pr create printed no pull request URL: ${r.stdout.trim().slice(0, 200)}` };
}

/** One comment of an issue; `association`: its author's role in the repository (GitHub's authorAssociation). */
export type IssueComment = { login: string; association: string; createdAt: string; body: string };
/** `request`: the body (or title) and every comment, as `agentmux issue` works on it. */
export type Issue = { number: number; title: string; body: string; comments: IssueComment[]; request: string };

/** The issue number in `N`, `#N` or a URL whose path ends in /issues/N. */
export function parseIssueRef(ref: string): number {
  const s = ref.trim();
  const m = /^#?(\d+)$/.exec(s) ?? /\/issues\/(\d+)\/?(?:[?#].*)?$/.exec(s);
  if (!m || Number(m[1]) <= 0) {
    throw new NotAnIssueRef({ ref });
  }
  return Number(m[1]);
}

type IssueJson = { title?: string; body?: string; comments?: { author?: { login?: string }; authorAssociation?: string; createdAt?: string; body?: string }[] };

/** The `## Issue Comments` section of a request (nothing without comments). */
export function commentsSection(comments: readonly IssueComment[]): string {
  if (!comments.length) return "";
  return "\n\n## Issue Comments\n" + comments.map((c) => `\n### ${c.login} (${c.createdAt})\n\n${c.body}\n`).join("");
}

/** Fetch an issue with `gh issue view`; the request is its body (or title) plus its comments. */
export async function fetchIssue(ref: string, cwd: string, run: Runner = runProcess): Promise<Issue> {
  const number = parseIssueRef(ref);
  const r = await run(["gh", "issue", "view", String(number), "--json", "title,body,comments"], { cwd, env: { GH_PROMPT_DISABLED: "1", NO_COLOR: "1" } });
  if (r.code !== 0) throw new IssueFetchFailed({ number, problem: "failed", detail: firstError(r) });
  let data: IssueJson;
  try {
    data = JSON.parse(r.stdout);
  } catch {
    throw new IssueFetchFailed({ number, problem: "not-json" });
  }
  const title = (data.title ?? "").trim();
  if (!title) throw new IssueFetchFailed({ number, problem: "no-title" });
  const body = (data.body ?? "").trim();
  const comments: IssueComment[] = (data.comments ?? [])
    .filter((c) => (c.body ?? "").trim())
    .map((c) => ({
      login: c.author?.login ?? "unknown",
      association: (c.authorAssociation ?? "NONE").toUpperCase(),
      createdAt: c.createdAt ?? "unknown date",
      body: (c.body ?? "").trim(),
    }));
  return { number, title, body, comments, request: (body || title) + commentsSection(comments) };
}

/** Marks a pull request agentmux opened: a review on it may start a fix round (the GitHub Action). */
export const PR_MARKER = "<!-- agentmux:pull-request -->";

/** `text` cut to `max` characters, saying how much was left out. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `\n\n[… ${text.length - max} more characters cut]\n`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}

/** `text` cut to `max` characters in the middle: its end (`Closes #N`, the marker) stays. */
export function cutMiddle(text: string, max: number, tail = 2000): string {
  if (text.length <= max) return text;
  const end = text.slice(-tail);
  return cut(text.slice(0, -tail), max - tail) + end;
}

/**
 * A part's markdown under the body's `## title`: a first heading that repeats the title goes,
 * and its other headings move down so that the highest of them is `###` (outside code blocks).
 */
function underHeading(title: string, text: string): string {
  const lines = text.split("\n");
  if (
    /^#{1,6}\s/.test(lines[0] ?? "") &&
    lines[0]!
      .replace(/^#+\s+/, "")
      .trim()
      .toLowerCase() === title.toLowerCase()
  )
    lines.splice(0, lines[1]?.trim() ? 1 : 2);
  let fenced = false;
  const heading = lines.map((l) => {
    if (/^\s*(```|~~~)/.test(l)) fenced = !fenced;
    return fenced ? 0 : (/^(#{1,6})\s/.exec(l)?.[1]!.length ?? 0);
  });
  const top = Math.min(...heading.filter((n) => n > 0));
  if (!Number.isFinite(top) || top >= 3) return lines.join("\n");
  return lines.map((l, i) => (heading[i] ? "#".repeat(Math.min(6, heading[i]! + 3 - top)) + l.slice(heading[i]) : l)).join("\n");
}

/**
 * The pull request description: summary, request, plan summary, review verdict, and `Closes #N`.
 * Each part is cut so that the whole stays within GitHub's limit with `Closes #N` and the marker kept.
 * Every part is untrusted (agents wrote it, or an issue did): it goes in as inert text.
 */
export function prBody(input: {
  summary?: string;
  requirements?: string;
  planSummary?: string;
  reviewVerdict?: string;
  checks?: string;
  issueNumber?: number;
}): string {
  const part = (title: string, raw?: string) => {
    const text = underHeading(title, inertText(raw ?? "").trim());
    return `## ${title}\n\n${text ? cut(text, PR_BODY_MAX / 5) : "(not available)"}\n`;
  };
  const parts = input.summary?.trim() ? [part("Summary", input.summary)] : [];
  parts.push(part("Initial Request", input.requirements), part("Plan Summary", input.planSummary), part("Review Verdict", input.reviewVerdict));
  // agentmux's own table (names and commands come from the project's config): not cut or re-headed
  if (input.checks?.trim()) parts.push(`## Checks\n\n${inertText(input.checks).trim()}\n`);
  if (input.issueNumber !== undefined) parts.push(`Closes #${input.issueNumber}\n`);
  parts.push(`${PR_MARKER}\n`);
  return parts.join("\n");
}

// ---- GitHub's REST API through `gh api` (bodies go on stdin, never in argv) ----

export const GhApiFailed = defineError("GhApiFailed", "gh", (d: { method: string; endpoint: string; detail: string }) => ({
  message: `gh api ${d.method} ${d.endpoint} failed: ${d.detail}`,
  where: "gh api",
  hint: "check the token's permissions (issues: write, pull-requests: write, contents: write) and `gh auth status`",
}));

/** `owner/name`, as GITHUB_REPOSITORY spells it; anything else never reaches an endpoint. */
export function checkRepoSlug(repo: string): string {
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repo)) {
    throw new NotARepoSlug({ repo });
  }
  return repo;
}

/** One REST call; the answer is checked against `schema`. */
export async function ghApi<T>(
  o: { method?: "GET" | "POST" | "PATCH"; endpoint: string; body?: object },
  schema: z.ZodType<T>,
  run: Runner = runProcess,
): Promise<T> {
  const method = o.method ?? "GET";
  const argv = ["gh", "api", "--method", method, "-H", "Accept: application/vnd.github+json", o.endpoint];
  if (o.body) argv.push("--input", "-");
  const r = await run(argv, { env: { GH_PROMPT_DISABLED: "1", NO_COLOR: "1" }, ...(o.body ? { stdin: JSON.stringify(o.body) } : {}) });
  if (r.code !== 0) throw new GhApiFailed({ method, endpoint: o.endpoint, detail: firstError(r) });
  let data: unknown;
  try {
    data = JSON.parse(r.stdout);
  } catch {
    throw new GhApiFailed({ method, endpoint: o.endpoint, detail: `the answer is not JSON: ${r.stdout.trim().slice(0, 120)}` });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new GhApiFailed({
      method,
      endpoint: o.endpoint,
      detail: `unexpected answer: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`,
    });
  return parsed.data;
}

export const createIssueComment = (repo: string, issue: number, body: string, run?: Runner): Promise<GhCommentRef> =>
  ghApi({ method: "POST", endpoint: `repos/${checkRepoSlug(repo)}/issues/${issue}/comments`, body: { body } }, GhCommentRef, run);

export const updateIssueComment = (repo: string, id: number, body: string, run?: Runner): Promise<GhCommentRef> =>
  ghApi({ method: "PATCH", endpoint: `repos/${checkRepoSlug(repo)}/issues/comments/${id}`, body: { body } }, GhCommentRef, run);

export const fetchPullRequest = (repo: string, pr: number, run?: Runner): Promise<GhPullRequest> =>
  ghApi({ endpoint: `repos/${checkRepoSlug(repo)}/pulls/${pr}` }, GhPullRequest, run);

/** The line comments of one review (up to 100: GitHub's page size). */
export const reviewComments = (repo: string, pr: number, review: number, run?: Runner): Promise<GhReviewComment[]> =>
  ghApi({ endpoint: `repos/${checkRepoSlug(repo)}/pulls/${pr}/reviews/${review}/comments?per_page=100` }, z.array(GhReviewComment), run);

/** A reply in a review comment's thread. */
export const replyToReviewComment = (repo: string, pr: number, comment: number, body: string, run?: Runner): Promise<GhCommentRef> =>
  ghApi({ method: "POST", endpoint: `repos/${checkRepoSlug(repo)}/pulls/${pr}/comments/${comment}/replies`, body: { body } }, GhCommentRef, run);

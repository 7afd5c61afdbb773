import type { Issue } from "../../effects/gh.ts";
import type { GhPullRequest, GhReviewComment } from "../../schema/github.ts";
import { afterPhrase, type RoundSource } from "./trigger.ts";

/**
 * The texts a GitHub trigger becomes: the request of an issue run, and the request and the
 * findings (07_review/fix_request.md) of a review round. Plain text in files — never a shell.
 */

/** Like `agentmux issue`: title, body and comments; a trigger comment's own words come last. */
export function issueRequest(issue: Issue, instructions: { login: string; text: string } | null): string {
  let request = `${issue.title}\n\n${issue.request}`;
  if (instructions?.text.trim()) request += `\n\n## Request from @${instructions.login}\n\n${instructions.text.trim()}\n`;
  return request;
}

const quote = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((l) => `> ${l}`.trimEnd())
    .join("\n");

/** The request of a review round: what to do, with the pull request's description quoted as background. */
export function roundRequest(pr: GhPullRequest): string {
  const parts = [`Address the review of pull request #${pr.number}: ${pr.title.replace(/\s+/g, " ").trim()}`];
  if (pr.body.trim()) parts.push(`The pull request's description:\n\n${quote(pr.body)}`);
  return parts.join("\n\n") + "\n";
}

function where(c: GhReviewComment): string {
  const line = c.line ?? c.original_line ?? null;
  if (line === null) return `\`${c.path}\``;
  return c.start_line && c.start_line !== line ? `\`${c.path}\` lines ${c.start_line}–${line}` : `\`${c.path}\` line ${line}`;
}

/**
 * 07_review/fix_request.md for a round: the reviewer's words, then one finding per line
 * comment (file, line, body). Plain Markdown until review comments get anchors of their own.
 */
export function findingsMarkdown(o: { pr: number; actor: string; source: RoundSource; comments: GhReviewComment[]; phrase: string }): string {
  const out = [`# Review of pull request #${o.pr} by @${o.actor}`, ""];
  const strip = (body: string) => afterPhrase(body, o.phrase) ?? body.trim();
  if (o.source.type === "review" && o.source.body.trim()) out.push(o.source.body.trim(), "");
  if (o.source.type === "comment" && o.source.body.trim()) out.push("## Finding 1", "", o.source.body.trim(), "");
  const comments = o.source.type === "review_comment" ? [o.source.comment] : o.source.type === "review" ? o.comments : [];
  comments.forEach((c, i) => {
    out.push(`## Finding ${i + 1}: ${where(c)}`, "", strip(c.body) || "(no text)", "");
  });
  if (out.length === 2) out.push("## Finding 1", "", "(the review gave no details: look at the pull request's open review threads)", "");
  return out.join("\n");
}

import { commentsSection, type Issue } from "../../effects/gh.ts";
import type { GhPullRequest, GhReviewComment } from "../../schema/github.ts";
import { afterPhrase, type RoundSource } from "./trigger.ts";

/**
 * The texts a GitHub trigger becomes: the request of an issue run, and the request and the
 * findings (07_review/fix_request.md) of a review round. Plain text in files — never a shell.
 */

export type IssueTrust = {
  /** the roles whose words may reach the agents (the action's allowed_associations) */
  allowed: readonly string[];
  /** the issue as the person who started the run saw it (the event's payload); absent for a dispatch */
  seen?: { title: string; body: string };
  /** who started the run */
  actor: string;
};

/**
 * The request of an issue run started on GitHub: title, body and comments, then a trigger
 * comment's own words. Only words someone with a role in `allowed` wrote or vouched for reach
 * the agents: the title and body as they were when the run was started (an edit made since is
 * not taken), and only the comments of people with an allowed role. `notes` says what was left
 * out, for the log and the progress comment.
 */
export function issueRequest(issue: Issue, instructions: { login: string; text: string } | null, trust: IssueTrust): { request: string; notes: string[] } {
  const notes: string[] = [];
  const title = trust.seen?.title ?? issue.title;
  const body = (trust.seen?.body ?? issue.body).trim();
  if (trust.seen && (trust.seen.title !== issue.title || trust.seen.body.trim() !== issue.body.trim())) {
    notes.push(`the issue was edited after @${trust.actor} started this run: the agents get its text as it was then`);
  }
  const kept = issue.comments.filter((c) => trust.allowed.includes(c.association.toUpperCase()));
  const left = issue.comments.filter((c) => !kept.includes(c));
  if (left.length) {
    const who = [...new Set(left.map((c) => `@${c.login}`))];
    notes.push(
      `${left.length} comment(s) by ${who.slice(0, 5).join(", ")}${who.length > 5 ? ", …" : ""} were left out of the request: ` +
        `their authors are not ${trust.allowed.join(", ")} of this repository (input allowed_associations)`,
    );
  }
  let request = `${title}\n\n${body || title}${commentsSection(kept)}`;
  if (instructions?.text.trim()) request += `\n\n## Request from @${instructions.login}\n\n${instructions.text.trim()}\n`;
  return { request, notes };
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

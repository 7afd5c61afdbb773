import type { z } from "zod";
import { defineError } from "../../errors.ts";
import { PROGRESS_MARKER } from "../../views/progress-comment.ts";
import type { ActionInputs } from "../../schema/github-action.ts";
import { GhUser, IssueCommentEvent, IssuesEvent, PullRequestReviewCommentEvent, PullRequestReviewEvent, type GhReviewComment } from "../../schema/github.ts";

/**
 * Which GitHub event starts which run — a pure decision on the event payload and the action's
 * inputs. Text from the payload is data: it is matched and copied, never interpreted.
 */
export type RoundSource =
  { type: "review"; review: number; body: string } | { type: "review_comment"; comment: GhReviewComment } | { type: "comment"; comment: number; body: string };

export type Trigger =
  | { kind: "ignore"; reason: string }
  | { kind: "request"; request: string; actor: string }
  | {
      kind: "issue";
      issue: number;
      actor: string;
      via: "label" | "assignee" | "comment" | "dispatch";
      instructions: string;
      /** the issue's title and body in the event: what the actor saw when starting the run */
      seen?: { title: string; body: string };
    }
  | { kind: "round"; pr: number; actor: string; source: RoundSource };

export const BadEventPayload = defineError("BadEventPayload", "usage", (d: { event: string; path: string; problem: string }) => ({
  message: `the ${d.event} payload does not look like one GitHub sends: ${d.problem}`,
  where: d.path,
  hint: "GITHUB_EVENT_PATH and GITHUB_EVENT_NAME must come from the same workflow run",
}));

const DISPATCH_EVENTS = new Set(["workflow_dispatch", "schedule", "workflow_call", "repository_dispatch"]);

export const isBot = (u: GhUser) => u.type === "Bot" || /\[bot\]$/i.test(u.login);

/** The text after the trigger phrase, or null when `body` does not start with it (as a word). */
export function afterPhrase(body: string, phrase: string): string | null {
  const text = body.replace(/^\s+/, "");
  if (!text.toLowerCase().startsWith(phrase.toLowerCase())) return null;
  const rest = text.slice(phrase.length);
  if (rest && !/^\s/.test(rest)) return null; // "/agentmuxer" is not "/agentmux"
  return rest.trim();
}

/** Why an author may not start a run, or null when they may. */
function refuseAuthor(user: GhUser, association: string, inputs: ActionInputs): string | null {
  if (isBot(user)) return `@${user.login} is a bot; bots never start runs`;
  if (!inputs.allowed_associations.includes(association.toUpperCase())) {
    return `@${user.login} is ${association} of this repository; runs start only for ${inputs.allowed_associations.join(", ")} (input allowed_associations)`;
  }
  return null;
}

function parse<T extends z.ZodType>(schema: T, event: string, path: string, payload: unknown): z.infer<T> {
  const r = schema.safeParse(payload);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  throw new BadEventPayload({ event, path, problem: `${i.path.join(".") || "(top)"}: ${i.message}` });
}

export function decide(event: string, payload: unknown, inputs: ActionInputs, o: { path: string; actor: string }): Trigger {
  const ignore = (reason: string): Trigger => ({ kind: "ignore", reason });
  if (DISPATCH_EVENTS.has(event)) {
    // whoever can start a workflow by hand or on a schedule has write access already
    if (inputs.issue !== null) return { kind: "issue", issue: inputs.issue, actor: o.actor, via: "dispatch", instructions: "" };
    if (inputs.request.trim()) return { kind: "request", request: inputs.request, actor: o.actor };
    return ignore(`a ${event} run needs the issue or request input`);
  }
  if (event === "issues") {
    const e = parse(IssuesEvent, event, o.path, payload);
    if (isBot(e.sender)) return ignore(`@${e.sender.login} is a bot; bots never start runs`);
    // labelling and assigning need triage or write access: the person doing it vouches for the issue
    if (e.action === "labeled") {
      if (!inputs.label) return ignore("labels start no runs (the label input is empty)");
      if (e.label?.name.toLowerCase() !== inputs.label.toLowerCase()) return ignore(`the label "${e.label?.name ?? ""}" is not "${inputs.label}"`);
      return {
        kind: "issue",
        issue: e.issue.number,
        actor: e.sender.login,
        via: "label",
        instructions: "",
        seen: { title: e.issue.title, body: e.issue.body },
      };
    }
    if (e.action === "assigned") {
      if (!inputs.assignee) return ignore("assignments start no runs (the assignee input is empty)");
      if (e.assignee?.login.toLowerCase() !== inputs.assignee.toLowerCase())
        return ignore(`the issue was assigned to @${e.assignee?.login ?? "nobody"}, not @${inputs.assignee}`);
      return {
        kind: "issue",
        issue: e.issue.number,
        actor: e.sender.login,
        via: "assignee",
        instructions: "",
        seen: { title: e.issue.title, body: e.issue.body },
      };
    }
    return ignore(`issues.${e.action} starts no runs (labeled and assigned do)`);
  }
  if (event === "issue_comment") {
    const e = parse(IssueCommentEvent, event, o.path, payload);
    if (e.action !== "created") return ignore(`issue_comment.${e.action} starts no runs (created does)`);
    if (e.comment.body.includes(PROGRESS_MARKER)) return ignore("the comment is agentmux's own progress comment");
    const text = afterPhrase(e.comment.body, inputs.trigger_phrase);
    if (text === null) return ignore(`the comment does not start with ${inputs.trigger_phrase}`);
    const refused = refuseAuthor(e.comment.user, e.comment.author_association, inputs);
    if (refused) return ignore(refused);
    if (e.issue.pull_request)
      return { kind: "round", pr: e.issue.number, actor: e.comment.user.login, source: { type: "comment", comment: e.comment.id, body: text } };
    return {
      kind: "issue",
      issue: e.issue.number,
      actor: e.comment.user.login,
      via: "comment",
      instructions: text,
      seen: { title: e.issue.title, body: e.issue.body },
    };
  }
  if (event === "pull_request_review") {
    const e = parse(PullRequestReviewEvent, event, o.path, payload);
    if (e.action !== "submitted") return ignore(`pull_request_review.${e.action} starts no runs (submitted does)`);
    const text = afterPhrase(e.review.body, inputs.trigger_phrase);
    if (text === null) return ignore(`the review does not start with ${inputs.trigger_phrase}`);
    const refused = refuseAuthor(e.review.user, e.review.author_association, inputs);
    if (refused) return ignore(refused);
    return { kind: "round", pr: e.pull_request.number, actor: e.review.user.login, source: { type: "review", review: e.review.id, body: text } };
  }
  if (event === "pull_request_review_comment") {
    const e = parse(PullRequestReviewCommentEvent, event, o.path, payload);
    if (e.action !== "created") return ignore(`pull_request_review_comment.${e.action} starts no runs (created does)`);
    if (afterPhrase(e.comment.body, inputs.trigger_phrase) === null) return ignore(`the review comment does not start with ${inputs.trigger_phrase}`);
    const refused = refuseAuthor(e.comment.user, e.comment.author_association, inputs);
    if (refused) return ignore(refused);
    return { kind: "round", pr: e.pull_request.number, actor: e.comment.user.login, source: { type: "review_comment", comment: e.comment } };
  }
  return ignore(`the ${event} event starts no runs`);
}

import { inertText } from "../../schema/inert-text.ts";

const SUBJECT_MAX = 72;
/** any message's subject line and body are cut to these (a 1 MB request is not a commit message) */
const ANY_SUBJECT_MAX = 200;
const BODY_MAX = 16_000;
const MIN_SUMMARY = 10;

export type CommitDraftInput = { requirements?: string; planOverview?: string; featureSlug: string; issueNumber?: number };

/**
 * The fallback commit message when the user gave none: `feat: <summary>[ (#N)]`, the summary
 * taken from the first line of requirements.md's "## Initial Request" section, else the plan
 * overview's first line, else the feature slug. The subject fits 72 characters (cut with
 * "..."); the plan overview, when there is one, becomes the body. Pure and deterministic.
 * The request and the plan are untrusted: the message is built from their inert text.
 */
export function draftCommitMessage(raw: CommitDraftInput): string {
  const input = { ...raw, requirements: inertText(raw.requirements ?? ""), planOverview: inertText(raw.planOverview ?? "") };
  const summary =
    firstLine(section(input.requirements, "Initial Request")) ?? firstLine(input.planOverview) ?? (slugWords(input.featureSlug) || "update implementation");
  const suffix = input.issueNumber !== undefined ? ` (#${input.issueNumber})` : "";
  const subject = fitSubject(summary.replace(/[.\s]+$/, ""), suffix);
  const body = input.planOverview.trim();
  return body && body !== summary ? `${subject}\n\n${body}` : subject;
}

function fitSubject(summary: string, suffix: string): string {
  const prefix = "feat: ";
  const room = SUBJECT_MAX - prefix.length - suffix.length;
  // Conventional Commits style: lower-case first word (unless it is an acronym like "API")
  let text = /^[A-Z][a-z]/.test(summary) ? summary[0]!.toLowerCase() + summary.slice(1) : summary;
  if (text.length > room) {
    // prefer a whole clause ("add a greeting module: …" → "add a greeting module"), else whole words
    const clause = text.split(/[:;,.]\s/)[0]!;
    if (clause.length >= MIN_SUMMARY && clause.length <= room) text = clause;
    else {
      const cut = text.slice(0, room - 3);
      const space = cut.lastIndexOf(" ");
      text = (space >= MIN_SUMMARY ? cut.slice(0, space) : cut.slice(0, Math.max(MIN_SUMMARY, room - 3))).trimEnd() + "...";
    }
  }
  return prefix + text + suffix;
}

/** The body of the `## <title>` section of a Markdown document ("" when absent). */
export function section(markdown: string, title: string): string {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => new RegExp(`^##\\s+${title}\\s*$`, "i").test(l.trim()));
  if (start < 0) return "";
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^#{1,2}\s/.test(l));
  return (end < 0 ? rest : rest.slice(0, end)).join("\n");
}

/** The first non-empty text line (headings skipped), without list/quote markers; undefined when none. */
function firstLine(text: string): string | undefined {
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*#/.test(raw)) continue;
    const line = raw.replace(/^\s*([-*+>]|\d+[.)])\s+/, "").trim();
    if (line) return line.replace(/\s+/g, " ");
  }
  return undefined;
}

function slugWords(slug: string): string {
  return slug
    .replace(/^\d{8}-\d{6}-/, "")
    .split(/[-_\s]+/)
    .filter(Boolean)
    .join(" ");
}

/**
 * A commit message of sensible size whatever its source (the user, a reviewer, a draft): the
 * subject line cut to 200 characters at a word, the body to 16,000 characters at a line,
 * each cut said in the message. Short messages are returned unchanged.
 */
export function fitCommitMessage(message: string): string {
  const text = message.trim();
  const nl = text.indexOf("\n");
  let subject = nl < 0 ? text : text.slice(0, nl);
  let body = nl < 0 ? "" : text.slice(nl + 1).replace(/^\s*\n/, "");
  if (subject.length > ANY_SUBJECT_MAX) {
    const head = subject.slice(0, ANY_SUBJECT_MAX - 3);
    const space = head.lastIndexOf(" ");
    body = subject + (body ? "\n\n" + body : "");
    subject = (space >= ANY_SUBJECT_MAX / 2 ? head.slice(0, space) : head).trimEnd() + "...";
  }
  if (body.length > BODY_MAX) {
    const keep = body.slice(0, BODY_MAX);
    const at = keep.lastIndexOf("\n");
    body = (at > BODY_MAX / 2 ? keep.slice(0, at) : keep).trimEnd() + `\n\n[… ${body.length - (at > BODY_MAX / 2 ? at : BODY_MAX)} more characters cut]`;
  }
  return body.trim() ? `${subject}\n\n${body.trim()}` : subject;
}

const SUBJECT_MAX = 72;
const MIN_SUMMARY = 10;

export type CommitDraftInput = { requirements?: string; planOverview?: string; featureSlug: string; issueNumber?: number };

/**
 * The fallback commit message when the user gave none: `feat: <summary>[ (#N)]`, the summary
 * taken from the first line of requirements.md's "## Initial Request" section, else the plan
 * overview's first line, else the feature slug. The subject fits 72 characters (cut with
 * "..."); the plan overview, when there is one, becomes the body. Pure and deterministic.
 */
export function draftCommitMessage(input: CommitDraftInput): string {
  const summary =
    firstLine(section(input.requirements ?? "", "Initial Request")) ??
    firstLine(input.planOverview ?? "") ??
    (slugWords(input.featureSlug) || "update implementation");
  const suffix = input.issueNumber !== undefined ? ` (#${input.issueNumber})` : "";
  const subject = fitSubject(summary.replace(/[.\s]+$/, ""), suffix);
  const body = (input.planOverview ?? "").trim();
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

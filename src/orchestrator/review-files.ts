import type { Review } from "../schema/artifacts/review.ts";
import { severityCounts } from "../schema/artifacts/review.ts";
import type { OpenFinding, ReviewComment, ReviewLoopCap, ReviewResult, State } from "../schema/state.ts";
import { commentLines } from "./line-comments.ts";

/** A review as Markdown: verdict line, summary, findings, line comments (with their ids), suggested commit message. */
export function reviewMarkdown(r: Review, comments: readonly ReviewComment[] = []): string {
  const out = [`verdict: ${r.verdict}`, "", "## Summary", "", r.summary.trim()];
  if (r.findings.length) {
    out.push("", "## Findings");
    r.findings.forEach((f, i) => {
      out.push("", `### Finding ${i + 1}`);
      if (f.location) out.push(`- Location: ${f.location}`);
      if (f.severity) out.push(`- Severity: ${f.severity}`);
      out.push(`- Issue: ${f.issue.trim()}`, `- Recommendation: ${f.recommendation.trim()}`);
    });
  }
  if (comments.length) out.push("", "## Line comments", "", ...commentLines(comments));
  if (r.commit_message?.trim()) out.push("", "## Suggested Commit Message", "", r.commit_message.trim());
  return out.join("\n") + "\n";
}

const MAX_KEPT_FINDINGS = 20;
const short = (s: string, n: number) => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** How much of a review state.json keeps (#18.20): the full text lives in its archive file. */
export const MAX_KEPT_SUMMARY = 2000;
export const MAX_KEPT_TEXT = 64 * 1024;

/** At most `max` characters of `text`, cut at a line end, with where the rest is. */
function clipped(text: string, max: number, file: string): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf("\n", max);
  const head = text.slice(0, cut > max / 2 ? cut : max);
  return `${head}\n\n… (the review is ${text.length} characters; the rest is in ${file})\n`;
}

/**
 * What state.json keeps of a review: verdict, a bounded summary and rendered text, the counts,
 * the open findings (capped) and `file`, the archive holding the review in full — a huge review
 * is never stored twice (or at all) in state.json, which every event rewrites.
 */
export function reviewResult(r: Review, file: string, comments: readonly ReviewComment[] = []): ReviewResult & { text: string; file: string } {
  const open: OpenFinding[] = r.findings.slice(0, MAX_KEPT_FINDINGS).map((f) => ({
    ...(f.severity ? { severity: f.severity } : {}),
    ...(f.location ? { location: short(f.location, 120) } : {}),
    issue: short(f.issue, 300),
  }));
  const summary = r.summary.trim();
  return {
    verdict: r.verdict,
    summary: summary.length > MAX_KEPT_SUMMARY ? `${summary.slice(0, MAX_KEPT_SUMMARY - 1)}…` : summary,
    counts: severityCounts([...r.findings, ...(r.comments ?? [])]),
    ...(r.commit_message?.trim() ? { commit_message: r.commit_message.trim() } : {}),
    text: clipped(reviewMarkdown(r, comments), MAX_KEPT_TEXT, file),
    file,
    ...(r.verdict === "fail" ? { findings: open } : {}),
  };
}

/** The findings of every failing review, by reviewer (sorted by role). */
export function openFindings(results: Results): ReviewLoopCap["open_findings"] {
  return sorted(results).flatMap(([reviewer, r]) => (r.verdict === "fail" ? (r.findings ?? []).map((f) => ({ reviewer, ...f })) : []));
}

type Results = NonNullable<State["review_results"]>;
const sorted = (results: Results) => Object.entries(results).sort(([a], [b]) => a.localeCompare(b));

/** 07_review/fix_request.md: every review of the round (passing ones too), sorted by role. */
export function fixRequestMarkdown(results: Results, iteration: number): string {
  const out = [
    `# Fix Request (review iteration ${iteration})`,
    "",
    "Fix every finding of the failing reviews below. Passing reviews are included for context.",
  ];
  for (const [role, r] of sorted(results)) out.push("", `## Review: ${role} (verdict: ${r.verdict})`, "", (r.text ?? r.summary).trim());
  return out.join("\n") + "\n";
}

/** 07_review/review.md: the consolidated passing review. */
export function consolidatedReview(results: Results): string {
  const entries = sorted(results);
  if (entries.length === 1) return entries[0]![1].text ?? `verdict: ${entries[0]![1].verdict}\n`;
  const out = ["verdict: pass", "", `Reviewed by ${entries.map(([r]) => r).join(", ")}.`];
  for (const [role, r] of entries) out.push("", `## ${role}`, "", (r.text ?? r.summary).trim());
  return out.join("\n") + "\n";
}

/** 08_completion/summary.md when the loop cap ended the review without a passing summary. */
export function loopCapSummary(results: Results, iterations: number, failingChecks: readonly string[] = []): string {
  const reviewsFailed = Object.values(results).some((r) => r.verdict === "fail");
  const checks = failingChecks.length ? `the required check${failingChecks.length === 1 ? "" : "s"} ${failingChecks.join(", ")} still failing` : "";
  const why = reviewsFailed
    ? `without every reviewer passing${checks ? `, and with ${checks}` : ""}`
    : checks
      ? `with ${checks}`
      : "without every reviewer passing";
  const out = [
    "# Summary",
    "",
    `The review loop stopped after ${iterations} fix round(s) ${why}. Check the failing ${reviewsFailed ? "findings" : "checks"} before approving.`,
    "",
    "## Review results",
  ];
  for (const [role, r] of sorted(results)) {
    out.push("", `### ${role}: ${r.verdict}`, "", ...(r.text ?? r.summary).trim().split("\n").slice(0, 20));
  }
  return out.join("\n") + "\n";
}

import type { GhPrCheck } from "../schema/ci.ts";
import type { CheckResult } from "../schema/checks.ts";
import { inertLine } from "../schema/inert-text.ts";

/** Marks agentmux's replies about CI in a pull request. */
export const CI_REPLY_MARKER = "<!-- agentmux:ci -->";

export type CiReply =
  | { kind: "fixing"; round: number; maxRounds: number; failing: readonly CheckResult[]; checks: readonly GhPrCheck[] }
  | { kind: "pushed"; round: number; commit: string }
  | { kind: "green"; rounds: number }
  | { kind: "still_failing"; rounds: number; checks: readonly GhPrCheck[] }
  | { kind: "timed_out"; minutes: number; checks: readonly GhPrCheck[] };

const anchor = (f: CheckResult["findings"][number]) => (f.file ? [f.file, f.line].filter((x) => x !== undefined).join(":") : "");
const md = (s: string) => inertLine(s).replace(/([\\`*_[\]<>|])/g, "\\$1");
const link = (c: GhPrCheck) => (/^https:\/\//.test(c.link) ? `[${md(c.name)}](${encodeURI(inertLine(c.link))})` : md(c.name));
const failingLinks = (checks: readonly GhPrCheck[]) =>
  checks
    .filter((c) => c.bucket === "fail" || c.bucket === "cancel" || c.bucket === "pending")
    .map((c) => `- ${link(c)}: ${md(c.state || c.bucket)}`)
    .join("\n");

/**
 * agentmux's reply in the pull request at each step of following its CI: a fix round starts
 * (with what failed and where), the fix is pushed, CI is green, or it is still failing after the
 * last round (with the links). Job names, messages and paths are untrusted: inert, Markdown escaped.
 */
export function ciReplyBody(r: CiReply): string {
  switch (r.kind) {
    case "fixing": {
      const items = r.failing.flatMap((f) => [
        `- **${md(f.name.replace(/^ci\//, ""))}**`,
        ...f.findings.slice(0, 5).map((x) => `  - \`${md(anchor(x) || "?")}\` ${md(x.message).slice(0, 200)}`),
        ...(f.findings.length === 0 ? f.failing_lines.slice(0, 3).map((l) => `  - ${md(l).slice(0, 200)}`) : []),
      ]);
      return [
        `CI failed on this pull request: agentmux is running fix round ${r.round} of ${r.maxRounds} on this branch.`,
        "",
        ...items,
        "",
        failingLinks(r.checks),
        CI_REPLY_MARKER,
      ].join("\n");
    }
    case "pushed":
      return [`Fix round ${r.round} pushed (${md(r.commit.slice(0, 12))}); following CI again.`, CI_REPLY_MARKER].join("\n");
    case "green":
      return [r.rounds === 0 ? "CI is green." : `CI is green after ${r.rounds} fix round${r.rounds === 1 ? "" : "s"}.`, CI_REPLY_MARKER].join("\n");
    case "still_failing":
      return [
        `CI still failing after ${r.rounds} fix round${r.rounds === 1 ? "" : "s"}; agentmux stops here.`,
        "",
        failingLinks(r.checks),
        CI_REPLY_MARKER,
      ].join("\n");
    case "timed_out":
      return [`CI did not finish within ${r.minutes} minutes; agentmux stopped following it.`, "", failingLinks(r.checks), CI_REPLY_MARKER].join("\n");
  }
}

import { defineError } from "../errors.ts";

/** GitHub through gh: what can go wrong, as data. */

export const NotAnIssueRef = defineError("NotAnIssueRef", "usage", (d: { ref: string }) => ({
  message: `"${d.ref}" is not an issue reference`,
  where: "issue",
  hint: "give an issue number (42 or #42) or its URL (https://github.com/owner/repo/issues/42)",
}));

export const GhUnavailable = defineError("GhUnavailable", "gh", (_: Record<string, never>) => ({
  message: "gh is not installed or not logged in",
  where: "issue",
  hint: "install GitHub's gh CLI and run `gh auth login`",
}));

/** `gh issue view` failed (`detail`), printed no JSON (`notJson`) or an issue without a title (`noTitle`). */
export const IssueFetchFailed = defineError("IssueFetchFailed", "gh", (d: { number: number; problem: "failed" | "not-json" | "no-title"; detail?: string }) => ({
  message:
    d.problem === "failed"
      ? `could not fetch issue #${d.number}: ${d.detail ?? ""}`
      : d.problem === "not-json"
        ? `issue #${d.number}: gh printed something that is not JSON`
        : `issue #${d.number} has no title`,
  where: `gh issue view ${d.number}`,
  hint: d.problem === "failed" ? "check `gh auth status` and that you are inside the issue's repository" : undefined,
}));

export const NotARepoSlug = defineError("NotARepoSlug", "usage", (d: { repo: string }) => ({
  message: `"${d.repo}" is not a GitHub repository (owner/name)`,
  where: "GITHUB_REPOSITORY",
}));

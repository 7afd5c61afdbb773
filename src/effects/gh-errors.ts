import { defineError } from "../errors.ts";

/** GitHub through gh: what can go wrong, as data. */

export const NotAnIssueRef = defineError("NotAnIssueRef", "usage", (d: { ref: string }) => ({
  message: `"${d.ref}" is not an issue reference`,
  where: "issue",
  hint: "give an issue number (42 or #42) or its URL (https://github.com/owner/repo/issues/42)",
}));

/** `agentmux issue` needs gh: it is not on PATH, or `gh auth status` failed (`detail`: what it said). */
export const GhUnavailable = defineError("GhUnavailable", "gh", (d: { problem: "missing" } | { problem: "logged-out"; detail: string }) =>
  d.problem === "missing"
    ? { message: "gh (GitHub's CLI) is not on PATH", where: "issue", hint: "install it (https://cli.github.com), then run `gh auth login`" }
    : { message: `gh is not logged in: ${d.detail}`, where: "issue", hint: "run `gh auth login` (or set GH_TOKEN), then try again" },
);

/** `gh issue view` failed (`detail`), printed no JSON (`notJson`) or an issue without a title (`noTitle`). */
export const IssueFetchFailed = defineError(
  "IssueFetchFailed",
  "gh",
  (d: { number: number; problem: "failed" | "not-json" | "no-title"; detail?: string }) => ({
    message:
      d.problem === "failed"
        ? `could not fetch issue #${d.number}: ${d.detail ?? ""}`
        : d.problem === "not-json"
          ? `issue #${d.number}: gh printed something that is not JSON`
          : `issue #${d.number} has no title`,
    where: `gh issue view ${d.number}`,
    hint: d.problem === "failed" ? "check `gh auth status` and that you are inside the issue's repository" : undefined,
  }),
);

export const NotARepoSlug = defineError("NotARepoSlug", "usage", (d: { repo: string }) => ({
  message: `"${d.repo}" is not a GitHub repository (owner/name)`,
  where: "GITHUB_REPOSITORY",
}));

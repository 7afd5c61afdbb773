import { afterEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { createPullRequest, fetchIssue, ghAvailable, parseIssueRef, prBody } from "../../src/effects/gh.ts";
import { IssueFetchFailed, NotAnIssueRef } from "../../src/effects/gh-errors.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { writeFakeGh } from "./fake-gh.ts";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));
function fakeGh() {
  const dir = makeTmpDir("amx-gh-");
  const gh = writeFakeGh(dir);
  cleanups.push(() => removeDir(dir));
  return { dir, ...gh };
}

describe("gh", () => {
  test("ghAvailable: --version and auth status must both succeed", async () => {
    const gh = fakeGh();
    expect(await ghAvailable(gh.run)).toBe(true);
    gh.env.FAKE_GH_AUTH_EXIT = "1";
    expect(await ghAvailable(gh.run)).toBe(false);
    expect(gh.calls()).toEqual([["--version"], ["auth", "status"], ["--version"], ["auth", "status"]]);
  });

  test("ghAvailable is false when gh is not installed", async () => {
    expect(await ghAvailable(async () => ({ code: 127, stdout: "", stderr: "gh: not found" }))).toBe(false);
  });

  test("createPullRequest passes title, body, base, head, draft and returns the URL; failures are data", async () => {
    const gh = fakeGh();
    const r = await createPullRequest(
      { cwd: gh.dir, title: "Add rate limiting", body: "## Initial Request\n\nx", base: "main", head: "feature/rl", draft: true },
      gh.run,
    );
    expect(r).toEqual({ ok: true, url: "https://github.com/acme/app/pull/7" });
    expect(gh.calls()).toEqual([["pr", "create", "--title", "Add rate limiting", "--body-file", "-", "--head", "feature/rl", "--base", "main", "--draft"]]);
    expect(gh.prBody()).toBe("## Initial Request\n\nx");
    gh.env.FAKE_GH_PR_FAIL = "a pull request for branch already exists";
    const bad = await createPullRequest({ cwd: gh.dir, title: "t", body: "b", base: null, head: "feature/rl", draft: false }, gh.run);
    expect(bad).toEqual({ ok: false, error: "gh pr create failed: GraphQL: a pull request for branch already exists" });
    expect(gh.calls()[1]).toEqual(["pr", "create", "--title", "t", "--body-file", "-", "--head", "feature/rl"]);
  });

  test("createPullRequest: a body far beyond one argument's limit (1 MB) reaches gh on stdin, cut to GitHub's limit with its end kept", async () => {
    const gh = fakeGh();
    const body = "## Initial Request\n\n" + "x".repeat(1024 * 1024) + "\n\nCloses #3\n";
    const r = await createPullRequest({ cwd: gh.dir, title: "Big " + "t".repeat(400), body, base: null, head: "feature/big", draft: false }, gh.run);
    expect(r).toEqual({ ok: true, url: "https://github.com/acme/app/pull/7" });
    const sent = gh.prBody()!;
    expect(sent.length).toBeLessThanOrEqual(65_536);
    expect(sent).toStartWith("## Initial Request\n\nxxx");
    expect(sent).toContain("more characters cut]");
    expect(sent).toEndWith("\n\nCloses #3\n");
    const title = gh.calls()[0]![gh.calls()[0]!.indexOf("--title") + 1]!;
    expect(title.length).toBeLessThanOrEqual(256);
    // prBody cuts each part, so a 1 MB request leaves room for the others and Closes #N
    const built = prBody({ requirements: "r".repeat(1024 * 1024), planSummary: "the plan", issueNumber: 3 });
    expect(built.length).toBeLessThan(65_536);
    expect(built).toContain("## Plan Summary\n\nthe plan");
    expect(built).toContain("Closes #3");
  });

  test("issue refs: N, #N, URL; anything else is a usage error", () => {
    expect(parseIssueRef("42")).toBe(42);
    expect(parseIssueRef("#7")).toBe(7);
    expect(parseIssueRef("https://github.com/acme/app/issues/123")).toBe(123);
    expect(parseIssueRef("https://github.com/acme/app/issues/123/")).toBe(123);
    for (const bad of ["", "abc", "#", "0", "https://github.com/acme/app/pull/5x"]) {
      expect(() => parseIssueRef(bad)).toThrow(NotAnIssueRef);
    }
  });

  test("fetchIssue builds the request from body and comments", async () => {
    const gh = fakeGh();
    const issueFile = join(gh.dir, "issue.json");
    fs.writeFileSync(
      issueFile,
      JSON.stringify({
        title: "Rate limit the API",
        body: "Requests should be limited per key.",
        comments: [
          { author: { login: "alice" }, createdAt: "2024-05-01T10:00:00Z", body: "Use a token bucket." },
          { author: { login: "bob" }, createdAt: "2024-05-02T11:00:00Z", body: "  " },
        ],
      }),
    );
    gh.env.FAKE_GH_ISSUE = issueFile;
    const issue = await fetchIssue("https://github.com/acme/app/issues/12", gh.dir, gh.run);
    expect(issue).toEqual({
      number: 12,
      title: "Rate limit the API",
      body: "Requests should be limited per key.",
      comments: [{ login: "alice", association: "NONE", createdAt: "2024-05-01T10:00:00Z", body: "Use a token bucket." }],
      request: "Requests should be limited per key.\n\n## Issue Comments\n\n### alice (2024-05-01T10:00:00Z)\n\nUse a token bucket.\n",
    });
    expect(gh.calls()).toEqual([["issue", "view", "12", "--json", "title,body,comments"]]);
    fs.writeFileSync(issueFile, JSON.stringify({ title: "Only a title", body: "", comments: [] }));
    expect((await fetchIssue("#3", gh.dir, gh.run)).request).toBe("Only a title");
    fs.writeFileSync(issueFile, JSON.stringify({ title: " ", body: "x" }));
    expect(await fetchIssue("3", gh.dir, gh.run).catch((e) => e.data)).toEqual({ number: 3, problem: "no-title" });
    delete gh.env.FAKE_GH_ISSUE;
    const err = await fetchIssue("9", gh.dir, gh.run).catch((e) => e);
    expect(err).toBeInstanceOf(IssueFetchFailed);
    expect(err.data).toEqual({ number: 9, problem: "failed", detail: "could not find issue" });
    expect(err.message).toBe("could not fetch issue #9: could not find issue");
  });

  test("prBody: sections with placeholders and Closes #N", () => {
    expect(prBody({ requirements: "Add X", planSummary: " ", reviewVerdict: "verdict: pass", issueNumber: 5 })).toBe(
      "## Initial Request\n\nAdd X\n\n## Plan Summary\n\n(not available)\n\n## Review Verdict\n\nverdict: pass\n\nCloses #5\n\n<!-- agentmux:pull-request -->\n",
    );
    expect(prBody({})).not.toContain("Closes");
    // the reviewer's summary of the implementation leads the description
    expect(prBody({ summary: "Adds farewell().\n", requirements: "Add X" })).toStartWith("## Summary\n\nAdds farewell().\n\n## Initial Request\n\nAdd X\n");
  });
});

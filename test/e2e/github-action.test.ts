import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PR_MARKER } from "../../src/effects/gh.ts";
import { PROGRESS_MARKER } from "../../src/views/progress-comment.ts";
import { issueComment, issueFile, labeled, makeJob, pullRequest, reviewComment } from "./action-fixture.ts";
import { git, isolatedBinary, killTmuxServer, privateSocket } from "./harness.ts";
import { removeDir } from "../helpers/tmp.ts";

let bin: string;
const socket = privateSocket();
const roots: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => {
  killTmuxServer(socket);
  for (const r of roots) removeDir(r);
});

function job() {
  const j = makeJob(bin, socket);
  roots.push(j.root);
  return j;
}

const state = (dir: string) => JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));

describe("github-action run", () => {
  test("an issue labelled agentmux: commit pushed, PR that closes the issue, one progress comment created then edited to the PR link", async () => {
    const j = job();
    const r = await j.run("run", "issues", labeled(42, "Add a farewell helper", { body: "We need `farewell(name)`." }), {
      FAKE_GH_ISSUE: issueFile(j.root, "Add a farewell helper", "We need `farewell(name)`."),
    });
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    const out = j.outputs();
    expect(out).toMatchObject({ exit_code: "0", outcome: "success", pr_url: "https://github.com/acme/app/pull/7" });
    const branch = "feature/issue-42-add-a-farewell-helper-4242";
    expect(out.branch).toBe(branch);
    // pushed: origin has the branch at the run's commit, on top of main, from a shallow checkout
    expect(git(j.repo, "rev-parse", "--is-shallow-repository")).toBe("true");
    expect(git(j.origin, "rev-parse", branch)).toBe(git(j.repo, "rev-parse", branch));
    expect(git(j.origin, "rev-parse", `${branch}^`)).toBe(git(j.origin, "rev-parse", "main"));
    expect(git(j.origin, "rev-parse", branch)).toStartWith(out.commit!);
    // the PR: head branch, draft, and a description with the summary, Closes #42 and agentmux's marker
    const pr = j.gh.calls().filter((c) => c[0] === "pr" && c[1] === "create");
    expect(pr).toHaveLength(1);
    expect(pr[0]![pr[0]!.indexOf("--head") + 1]).toBe(branch);
    expect(j.gh.prBody()).toContain("## Summary");
    expect(j.gh.prBody()).toContain("Closes #42");
    expect(j.gh.prBody()).toContain(PR_MARKER);
    // the progress comment: created once on the issue, then only edited — the last edit links the PR
    const api = j.gh.api();
    const created = api.filter((c) => c.method === "POST");
    expect(created.map((c) => c.endpoint)).toEqual(["repos/acme/app/issues/42/comments"]);
    const edits = api.filter((c) => c.method === "PATCH");
    expect(edits.length).toBeGreaterThanOrEqual(2);
    const id = 5001; // the fake's id for the first api call
    for (const e of edits) expect(e.endpoint).toBe(`repos/acme/app/issues/comments/${id}`);
    const bodies = api.map((c) => JSON.parse(c.input).body as string);
    for (const b of bodies) expect(b).toStartWith(PROGRESS_MARKER);
    expect(bodies[0]).toContain("starting");
    expect(bodies.some((b) => b.includes("| agent | provider | state |"))).toBe(true);
    const last = bodies.at(-1)!;
    expect(last).toContain("✅ **Done**");
    expect(last).toContain("pull request https://github.com/acme/app/pull/7");
    expect(last).toContain("- [x] reviewing");
    expect(last).toContain("[workflow run](https://github.com/acme/app/actions/runs/4242)");
    // headless with --json: JSON progress lines and the result line, between stop-commands markers
    const lines = r.stdout.split("\n");
    const stop = lines.find((l) => l.startsWith("::stop-commands::"))!;
    expect(stop).toBeDefined();
    expect(lines).toContain(`::${stop.slice("::stop-commands::".length)}::`);
    const result = lines.map((l) => (l.startsWith("{") ? JSON.parse(l) : null)).find((x) => x?.kind === "result");
    expect(result).toMatchObject({ outcome: "success", exit_code: 0, branch });
    // the session folder stays for the artifact
    expect(state(out.session_dir!).phase).toBe("done");
  }, 180_000);
});

describe("github-action: a run that fails", () => {
  test("the comment says where, why and how to retry; the uncommitted work is saved as a patch; the exit code is agentmux's", async () => {
    const j = job();
    mkdirSync(join(j.repo, ".agentmux"), { recursive: true });
    writeFileSync(join(j.repo, ".agentmux", "ci.yaml"), "sim:\n  scenario: [crash=reviewer_logic]\n");
    const summary = join(j.root, "step-summary.md");
    const r = await j.run("run", "issues", labeled(50, "Add a farewell helper", { body: "We need it." }), {
      FAKE_GH_ISSUE: issueFile(j.root, "Add a farewell helper", "We need it."),
      INPUT_CONFIG: ".agentmux/ci.yaml",
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(r.code).not.toBe(0);
    const out = j.outputs();
    expect(out.exit_code).toBe(String(r.code));
    expect(["failed", "canceled"]).toContain(out.outcome!);
    expect(j.gh.calls().some((c) => c[0] === "pr")).toBe(false);
    expect(git(j.origin, "branch", "--list")).toBe("* main"); // nothing pushed
    const last = JSON.parse(j.gh.api().at(-1)!.input).body as string;
    expect(last).toMatch(/❌ \*\*(Failed|Canceled)\*\* in reviewing after /);
    expect(last).toContain("To retry: re-run this workflow job, or comment `/agentmux` on this issue.");
    expect(last).toContain("The changes made so far are `work-in-progress.patch` in it: `git apply` them on commit `");
    // the coder's work applies on the base commit of a fresh clone
    const patch = join(out.session_dir!, "work-in-progress.patch");
    expect(readFileSync(patch, "utf8")).toContain("diff --git a/src/");
    expect(readFileSync(patch, "utf8")).not.toContain(".agentmux");
    git(j.seed, "apply", "--check", patch);
    // the job summary shows the final comment
    expect(readFileSync(summary, "utf8")).toBe(last.replace(`${PROGRESS_MARKER}\n`, "") + "\n");
  }, 180_000);
});

describe("github-action: a run that cannot start", () => {
  test("the issue cannot be read: the progress comment says why, exit 1, no session", async () => {
    const j = job();
    const r = await j.run("run", "issues", labeled(51, "x")); // the fake gh knows no issue
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("could not fetch issue #51: could not find issue");
    const api = j.gh.api();
    expect(api.map((c) => c.method)).toEqual(["POST", "PATCH"]);
    expect(JSON.parse(api[1]!.input).body).toContain("❌ **Failed** after ");
    expect(JSON.parse(api[1]!.input).body).toContain("could not fetch issue #51");
    expect(j.outputs()).toMatchObject({ exit_code: "1", outcome: "failed" });
    expect(j.sessionDirs()).toEqual([]);
  }, 60_000);
});

/** agentmux's pull request #7: its branch on origin only (the job's checkout holds main). */
function prOnOrigin(j: ReturnType<typeof job>, branch = "feature/add-a-farewell-helper") {
  git(j.seed, "switch", "-q", "-c", branch);
  writeFileSync(join(j.seed, "src", "farewell.js"), "export const farewell = (name) => `Bye ${name}`;\n");
  git(j.seed, "add", "-A");
  git(j.seed, "commit", "-q", "-m", "feat: add a farewell helper");
  git(j.seed, "push", "-q", "origin", branch);
  const prFile = join(j.root, "pr.json");
  writeFileSync(prFile, JSON.stringify(pullRequest(7, branch, `## Summary\n\nAdds farewell().\n\nCloses #42\n\n${PR_MARKER}\n`)));
  return { branch, before: git(j.seed, "rev-parse", "HEAD"), prFile };
}

describe("github-action review rounds", () => {
  test("a /agentmux review comment on agentmux's PR: a fix round on its branch, pushed there, no new PR, a reply in the thread", async () => {
    const j = job();
    const { branch, before, prFile } = prOnOrigin(j);
    const comment = reviewComment(311, "src/farewell.js", 1, "/agentmux an empty name should say just Bye");
    const r = await j.run(
      "run",
      "pull_request_review_comment",
      { action: "created", comment, pull_request: pullRequest(7, branch, PR_MARKER), sender: comment.user },
      { FAKE_GH_PR: prFile },
    );
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    // one new commit on the PR's branch, on top of the reviewed one, pushed to the same branch
    const tip = git(j.origin, "rev-parse", branch);
    expect(tip).not.toBe(before);
    expect(git(j.origin, "rev-parse", `${tip}^`)).toBe(before);
    expect(git(j.origin, "log", "-1", "--format=%an", tip)).toBe("github-actions[bot]"); // a runner has no git identity
    expect(j.outputs()).toMatchObject({ outcome: "success", branch, pr_url: "https://github.com/acme/app/pull/7" });
    expect(j.gh.calls().some((c) => c[0] === "pr" && c[1] === "create")).toBe(false);
    // the round: started in fixing with the review comment as the finding, then reviewed
    const dir = j.outputs().session_dir!;
    const s = state(dir);
    expect(s.history[0].phase).toBe("fixing");
    expect(s.history.map((h: { phase: string }) => h.phase)).toContain("reviewing");
    const findings = readFileSync(join(dir, "07_review", "fix_request.md"), "utf8");
    expect(findings).toContain("## Finding 1: `src/farewell.js` line 1");
    expect(findings).toContain("an empty name should say just Bye");
    expect(findings).not.toContain("/agentmux");
    // progress on the PR's conversation, and a reply in the review thread naming the commit
    const api = j.gh.api();
    expect(api.filter((c) => c.method === "POST").map((c) => c.endpoint)).toEqual([
      "repos/acme/app/issues/7/comments",
      "repos/acme/app/pulls/7/comments/311/replies",
    ]);
    const reply = JSON.parse(api.find((c) => c.endpoint.endsWith("/replies"))!.input).body;
    expect(reply).toContain(`\`${j.outputs().commit}\``);
    expect(reply).toContain(branch);
  }, 180_000);

  test("a /agentmux review: every line comment of the review becomes a finding, each thread gets a reply", async () => {
    const j = job();
    const { branch, before, prFile } = prOnOrigin(j);
    const comments = join(j.root, "review-comments.json");
    writeFileSync(
      comments,
      JSON.stringify([
        reviewComment(401, "src/farewell.js", 1, "Handle an empty name."),
        { ...reviewComment(402, "src/farewell.js", 1, "Agreed."), in_reply_to_id: 401 },
        { ...reviewComment(403, "README.md", 3, "Document farewell()."), start_line: 1 },
      ]),
    );
    const review = { id: 77, body: "/agentmux two things, see the comments", user: { login: "lead", type: "User" }, author_association: "OWNER" };
    const r = await j.run(
      "run",
      "pull_request_review",
      { action: "submitted", review, pull_request: pullRequest(7, branch, PR_MARKER), sender: review.user },
      { FAKE_GH_PR: prFile, FAKE_GH_REVIEW_COMMENTS: comments },
    );
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    expect(git(j.origin, "rev-parse", `${branch}^`)).toBe(before);
    const findings = readFileSync(join(j.outputs().session_dir!, "07_review", "fix_request.md"), "utf8");
    expect(findings).toBe(
      "# Review of pull request #7 by @lead\n\ntwo things, see the comments\n\n## Finding 1: `src/farewell.js` line 1\n\nHandle an empty name.\n\n## Finding 2: `README.md` lines 1–3\n\nDocument farewell().\n",
    );
    const endpoints = j.gh.api().map((c) => `${c.method} ${c.endpoint}`);
    expect(endpoints).toContain("GET repos/acme/app/pulls/7/reviews/77/comments?per_page=100");
    expect(endpoints.filter((e) => e.endsWith("/replies"))).toEqual([
      "POST repos/acme/app/pulls/7/comments/401/replies",
      "POST repos/acme/app/pulls/7/comments/403/replies",
    ]);
  }, 180_000);

  test("a /agentmux comment on a PR agentmux did not open changes nothing", async () => {
    const j = job();
    const prFile = join(j.root, "pr.json");
    writeFileSync(prFile, JSON.stringify(pullRequest(8, "someone/else", "A human's PR")));
    // check says so before anything is installed; run says so again if it is called anyway
    for (const step of ["check", "run"] as const) {
      const r = await j.run(step, "issue_comment", issueComment(8, "/agentmux fix it", { pr: true }), { FAKE_GH_PR: prFile });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("agentmux: not running: pull request #8 was not opened by agentmux");
    }
    expect(j.outputs()).toEqual({ run: "false", reason: "pull request #8 was not opened by agentmux" });
    expect(j.gh.api().map((c) => `${c.method} ${c.endpoint}`)).toEqual(["GET repos/acme/app/pulls/8", "GET repos/acme/app/pulls/8"]);
    expect(j.sessionDirs()).toEqual([]);
  }, 60_000);
});

test("github.watch_ci inside the job: the PR's CI red once → a fix round on its branch, pushed → green; the job succeeds", async () => {
  const j = job();
  const answers = join(j.root, "ci-answers");
  const logs = join(j.root, "ci-logs");
  mkdirSync(answers);
  mkdirSync(logs);
  const checks = (bucket: string) =>
    JSON.stringify([
      { name: "test", state: bucket === "fail" ? "FAILURE" : "SUCCESS", bucket, link: "https://github.com/acme/app/actions/runs/900/job/11", workflow: "CI" },
    ]);
  writeFileSync(join(answers, "1.json"), checks("fail"));
  writeFileSync(join(answers, "2.json"), checks("pass"));
  writeFileSync(join(logs, "11.log"), "test\tRun npm test\t2026-11-28T15:00:03.3000000Z /home/runner/work/app/app/src/index.js:1:14: expected farewell\n");
  writeFileSync(join(j.repo, "agentmux-ci.yaml"), "github:\n  watch_ci: true\n  ci_poll_s: 1\n");
  const r = await j.run("run", "issues", labeled(42, "Add a farewell helper"), {
    FAKE_GH_ISSUE: issueFile(j.root, "Add a farewell helper", "We need `farewell(name)`."),
    INPUT_CONFIG: "agentmux-ci.yaml",
    FAKE_GH_PR_CHECKS_DIR: answers,
    FAKE_GH_RUN_LOGS: logs,
  });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("agentmux: CI is green after 1 fix round(s)");
  const branch = j.outputs().branch!;
  expect(git(j.origin, "rev-list", "--count", `main..${branch}`)).toBe("2");
  expect(j.gh.calls().filter((c) => c[0] === "pr" && c[1] === "create")).toHaveLength(1);
  const comments = j.gh.prComments();
  expect(comments[0]).toContain("`src/index.js:1` expected farewell");
  expect(comments.at(-1)).toStartWith("CI is green after 1 fix round.");
}, 300_000);

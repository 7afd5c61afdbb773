import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { writeFakeGh, type FakeGh } from "../git/fake-gh.ts";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const socket = privateSocket();
let gh: FakeGh;
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => {
  killTmuxServer(socket);
});

/** A demo repository (one committed run) with a bare repository as its origin. */
async function demoWithOrigin(): Promise<{ root: string; repo: string; origin: string }> {
  const root = makeTmpDir();
  const repo = join(root, "repo");
  expect((await runBinary(bin, ["demo", "--ci", "--dir", repo], { socket })).code).toBe(0);
  const origin = join(root, "origin.git");
  git(root, "init", "-q", "--bare", origin);
  git(repo, "remote", "add", "origin", origin);
  return { root, repo, origin };
}

test("agentmux issue 42: request from the issue, commit pushed to origin, pull request that closes the issue", async () => {
  const { root, repo, origin } = await demoWithOrigin();
  gh = writeFakeGh(root);
  const issue = join(root, "issue.json");
  writeFileSync(
    issue,
    JSON.stringify({
      title: "Add a farewell helper",
      body: "We need `farewell(name)` next to greet.",
      comments: [{ author: { login: "octo" }, createdAt: "2026-11-01T10:00:00Z", body: "Please keep it tiny." }],
    }),
  );
  writeFileSync(join(root, "gh.yaml"), stringify({ github: { pull_request: true, push: true, base_branch: "main", draft: true } }));
  const r = await runBinary(bin, ["issue", "#42", "--ci", "--keep-session", "--config", join(root, "gh.yaml")], {
    cwd: repo,
    socket,
    env: { PATH: gh.path, FAKE_GH_ISSUE: issue },
  });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const branch = "feature/add-a-farewell-helper";
  expect(r.stdout).toContain(`branch ${branch}`);
  expect(r.stdout).toContain("PR https://github.com/acme/app/pull/7");
  // the request was built from the issue's title, body and comments
  const sessions = join(repo, ".agentmux", ".sessions");
  const id = readdirSync(sessions).find((d) => d.includes("farewell"))!;
  const requirements = readFileSync(join(sessions, id, "requirements.md"), "utf8");
  for (const part of ["Add a farewell helper", "farewell(name)", "### octo (2026-11-01T10:00:00Z)", "Please keep it tiny."])
    expect(requirements).toContain(part);
  const state = JSON.parse(readFileSync(join(sessions, id, "state.json"), "utf8"));
  expect(state.issue_number).toBe(42);
  // pushed: the bare remote has the branch at the pipeline's commit
  expect(git(origin, "rev-parse", branch)).toBe(git(repo, "rev-parse", branch));
  // gh pr create: base, head, draft, title, and a body that closes the issue
  const pr = gh.calls().find((c) => c[0] === "pr" && c[1] === "create")!;
  const arg = (flag: string) => pr[pr.indexOf(flag) + 1];
  expect(arg("--base")).toBe("main");
  expect(arg("--head")).toBe(branch);
  expect(pr).toContain("--draft");
  expect(arg("--title")).toBe("Add a farewell helper");
  expect(gh.prBody()).toContain("Closes #42");
  const last = JSON.parse(readFileSync(join(repo, ".agentmux", ".last_completion.json"), "utf8"));
  expect(last.pr_url).toBe("https://github.com/acme/app/pull/7");
  expect(git(repo, "log", "-1", "--format=%s", branch)).toEndWith("(#42)");
}, 180_000);

test("agentmux issue pulls the base branch first; github.push without pull_request pushes, and the skipped PR is said", async () => {
  const { root, repo, origin } = await demoWithOrigin();
  git(repo, "push", "-q", "origin", "main");
  // someone else moves main on GitHub: the local main is now behind
  const other = join(root, "other");
  git(root, "clone", "-q", "-b", "main", origin, other);
  writeFileSync(join(other, "UPSTREAM.md"), "merged upstream\n");
  git(other, "add", "UPSTREAM.md");
  git(other, "-c", "user.name=o", "-c", "user.email=o@o.invalid", "commit", "-q", "-m", "upstream change");
  git(other, "push", "-q", "origin", "main");
  const upstream = git(other, "rev-parse", "HEAD");
  const before = git(repo, "rev-parse", "main");
  const fake = writeFakeGh(join(root, "gh"));
  const issue = join(root, "issue.json");
  writeFileSync(issue, JSON.stringify({ title: "Add a farewell helper", body: "We need farewell(name).", comments: [] }));
  writeFileSync(join(root, "gh.yaml"), stringify({ github: { pull_request: false, push: true } }));
  const r = await runBinary(bin, ["issue", "42", "--ci", "--json", "--config", join(root, "gh.yaml")], {
    cwd: repo,
    socket,
    env: { PATH: fake.path, FAKE_GH_ISSUE: issue },
  });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(JSON.stringify({ kind: "notice", message: `updated main from origin (${before.slice(0, 7)} → ${upstream.slice(0, 7)})` }));
  const result = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .find((e) => e.kind === "result");
  expect(git(repo, "rev-parse", `${result.branch}~1`)).toBe(upstream);
  expect(git(repo, "rev-parse", "main")).toBe(upstream);
  // pushed without a pull request, and the result says why there is none
  expect(git(origin, "rev-parse", result.branch)).toBe(git(repo, "rev-parse", result.branch));
  expect(fake.calls().some((c) => c[0] === "pr")).toBe(false);
  expect(result.pr_url).toBeNull();
  expect(result.notes).toContain("no pull request: github.pull_request is false");
}, 180_000);

test("pull requests on but gh not logged in: said once at the start, the branch is still pushed, and the result says why there is no PR", async () => {
  const { root, repo, origin } = await demoWithOrigin();
  const fake = writeFakeGh(join(root, "gh"));
  writeFileSync(join(root, "gh.yaml"), stringify({ github: { pull_request: true, push: true } }));
  const r = await runBinary(bin, ["run", "--ci", "--json", "--config", join(root, "gh.yaml"), "Add a farewell helper"], {
    cwd: repo,
    socket,
    env: { PATH: fake.path, FAKE_GH_AUTH_EXIT: "1" },
  });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const said = JSON.stringify({
    kind: "notice",
    message: "gh is not installed or not logged in: no pull request will be opened; the branch will be pushed to origin (github.push)",
  });
  expect(r.stdout.split("\n").filter((l) => l === said)).toHaveLength(1);
  const result = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .find((e) => e.kind === "result");
  expect(git(origin, "rev-parse", result.branch)).toBe(git(repo, "rev-parse", result.branch));
  expect(result.notes).toContain("no pull request: gh is not installed or not logged in (gh auth login)");
  expect(fake.calls().some((c) => c[0] === "pr")).toBe(false);
}, 180_000);

test("--ci --json: every stdout line is a JSON object (the start notices too), and when gh pr create fails the result says why there is no PR", async () => {
  const { root, repo, origin } = await demoWithOrigin();
  const fake = writeFakeGh(join(root, "gh"));
  writeFileSync(join(root, "gh.yaml"), stringify({ github: { pull_request: true, push: true } }));
  writeFileSync(join(repo, "NOTES.txt"), "mine\n"); // an uncommitted file: the run says so at the start
  const r = await runBinary(bin, ["run", "--ci", "--json", "--config", join(root, "gh.yaml"), "Add a farewell helper"], {
    cwd: repo,
    socket,
    env: { PATH: fake.path, FAKE_GH_PR_FAIL: "a pull request for branch already exists" },
  });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split("\n");
  for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
  const events = lines.map((l) => JSON.parse(l));
  const notices = events.filter((e) => e.kind === "notice").map((e) => e.message);
  expect(notices.some((m: string) => m.includes("uncommitted file(s) were already here (NOTES.txt)"))).toBe(true);
  expect(notices.some((m: string) => m.startsWith("session ") && m.includes(" on branch feature/"))).toBe(true);
  const result = events.at(-1);
  expect(result.kind).toBe("result");
  expect(result.pr_url).toBeNull();
  expect(git(origin, "rev-parse", result.branch)).toBe(git(repo, "rev-parse", result.branch));
  expect(result.notes.some((n: string) => n.includes("gh pr create failed: GraphQL: a pull request for branch already exists"))).toBe(true);
}, 180_000);

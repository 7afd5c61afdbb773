import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { writeFakeGh } from "../git/fake-gh.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { git, runBinary } from "./harness.ts";
import { simProject } from "./sim-project.ts";

/** #26.6 through the compiled binary: a red CI on the pull request gets a fix round, a push and replies (fake gh). */
const scope = binaryScope();

const job = (bucket: string) => [
  {
    name: "test",
    state: bucket === "fail" ? "FAILURE" : "SUCCESS",
    bucket,
    link: "https://github.com/acme/app/actions/runs/900/job/11",
    workflow: "CI",
    description: "",
  },
];

/**
 * A simulated project with an origin to push to, a fake gh on PATH, and the folders the fake gh
 * answers `pr checks` from (`answers/<n>.json`, its n-th call) and reads job logs from (`logs/<job>.log`).
 */
function projectWithPullRequests() {
  const repo = simProject({ dirs: scope.dirs }, 0, []);
  const root = join(repo, "..");
  const origin = join(root, "origin.git");
  git(root, "init", "-q", "--bare", origin);
  git(repo, "remote", "add", "origin", origin);
  git(repo, "push", "-q", "origin", "HEAD:refs/heads/main");
  const gh = writeFakeGh(root);
  const answers = join(root, "checks");
  const logs = join(root, "logs");
  mkdirSync(answers);
  mkdirSync(logs);
  return { repo, root, origin, gh, answers, logs };
}

test("github.watch_ci: CI red once → its log as findings → fix round on the branch, pushed → green; replies in the pull request", async () => {
  const { repo, root, origin, gh, answers, logs } = projectWithPullRequests();
  writeFileSync(join(answers, "1.json"), JSON.stringify(job("fail")));
  writeFileSync(join(answers, "2.json"), JSON.stringify(job("pass")));
  writeFileSync(
    join(logs, "11.log"),
    "test\tRun npm test\t2026-11-28T15:00:03.3000000Z /home/runner/work/app/app/src/index.js:1:14: expected 2, got 1\ntest\tRun npm test\t2026-11-28T15:00:04.0000000Z ##[error]Process completed with exit code 1.\n",
  );
  const config = join(root, "ci.yaml");
  writeFileSync(config, stringify({ github: { pull_request: true, push: true, base_branch: "main", watch_ci: true, ci_poll_s: 1, ci_fix_rounds: 2 } }));

  const r = await runBinary(scope.bin, ["run", "Add alpha", "--ci", "--config", config], {
    cwd: repo,
    socket: scope.socket(),
    timeoutMs: 170_000,
    env: { PATH: gh.path, FAKE_GH_PR_CHECKS_DIR: answers, FAKE_GH_RUN_LOGS: logs },
  });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("agentmux: following the CI of https://github.com/acme/app/pull/7");
  expect(r.stdout).toContain("agentmux: CI job test failed (1 finding(s))");
  expect(r.stdout).toContain("agentmux: CI is green after 1 fix round(s)");
  // one pull request; the fix round's commit is on the same branch, pushed
  expect(gh.calls().filter((c) => c[0] === "pr" && c[1] === "create")).toHaveLength(1);
  const branch = "feature/add-alpha";
  expect(git(origin, "rev-list", "--count", `main..${branch}`)).toBe("2");
  expect(git(origin, "rev-parse", branch)).toBe(git(repo, "rev-parse", branch));
  const [fixing, pushed, green] = gh.prComments();
  expect(fixing).toContain("CI failed on this pull request: agentmux is running fix round 1 of 2 on this branch.");
  expect(fixing).toContain("`src/index.js:1` expected 2, got 1");
  expect(pushed).toStartWith(`Fix round 1 pushed (${git(repo, "rev-parse", branch).slice(0, 12)})`);
  expect(green).toStartWith("CI is green after 1 fix round.");
  // the checkout is back where the run found it
  expect(git(repo, "branch", "--show-current")).toBe("main");
}, 180_000);

test("resume <session> --watch-ci on a finished run (its archived record): CI stays red → one fix round (ci_fix_rounds: 1) → 'CI still failing after 1 fix round' with the link, exit 1", async () => {
  const { repo, root, origin, gh, answers, logs } = projectWithPullRequests();
  writeFileSync(join(answers, "1.json"), JSON.stringify(job("fail")));
  writeFileSync(join(logs, "11.log"), "test\tRun make\t2026-11-28T15:00:03.3000000Z make: *** [Makefile:3: test] Error 2\n");
  const env = { PATH: gh.path, FAKE_GH_PR_CHECKS_DIR: answers, FAKE_GH_RUN_LOGS: logs };
  const base = join(root, "base.yaml");
  writeFileSync(base, stringify({ github: { pull_request: true, push: true, base_branch: "main" } }));
  const first = await runBinary(scope.bin, ["run", "Add alpha", "--ci", "--json", "--name", "alpha", "--config", base], {
    cwd: repo,
    socket: scope.socket(),
    timeoutMs: 120_000,
    env,
  });
  expect(first.code).toBe(0);
  expect(gh.calls().some((c) => c[0] === "pr" && c[1] === "checks")).toBe(false); // watch_ci is off

  const ci = join(root, "ci.yaml");
  writeFileSync(ci, stringify({ github: { pull_request: true, push: true, ci_poll_s: 1, ci_fix_rounds: 1 } }));
  const r = await runBinary(scope.bin, ["resume", "alpha", "--watch-ci", "--ci", "--config", ci], {
    cwd: repo,
    socket: scope.socket(),
    timeoutMs: 150_000,
    env,
  });
  if (r.code !== 1) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("agentmux: CI still failing after 1 fix round(s): test https://github.com/acme/app/actions/runs/900/job/11");
  const comments = gh.prComments();
  expect(comments).toHaveLength(3);
  expect(comments[0]).toContain("make: \\*\\*\\* \\[Makefile:3: test\\] Error 2");
  expect(comments[2]).toStartWith("CI still failing after 1 fix round; agentmux stops here.");
  expect(comments[2]).toContain("- [test](https://github.com/acme/app/actions/runs/900/job/11): FAILURE");
  const branch = git(origin, "for-each-ref", "--format=%(refname:short)", "refs/heads/feature/");
  expect(git(origin, "rev-list", "--count", `main..${branch}`)).toBe("2");

  // a session that opened no pull request: a usage error
  writeFileSync(join(root, "nopr.yaml"), stringify({ github: { pull_request: false, push: false } }));
  expect(
    (
      await runBinary(scope.bin, ["run", "Add beta", "--ci", "--keep-session", "--name", "beta", "--config", join(root, "nopr.yaml")], {
        cwd: repo,
        socket: scope.socket(),
        timeoutMs: 120_000,
        env,
      })
    ).code,
  ).toBe(0);
  const none = await runBinary(scope.bin, ["resume", "beta", "--watch-ci", "--ci"], { cwd: repo, socket: scope.socket(), env });
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("session beta opened no pull request: there is no CI to follow");
}, 400_000);

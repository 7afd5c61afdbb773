import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runChecksOnBase } from "../../src/checks/base.ts";
import { compareAllWithBase } from "../../src/checks/compare.ts";
import { runCheck } from "../../src/checks/run.ts";
import { BASE_WORKTREE_PREFIX } from "../../src/effects/git/base-worktree.ts";
import { Config } from "../../src/schema/config.ts";
import { checkBlocks } from "../../src/schema/checks.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

/** #26.3: the checks on the base commit, in a temporary worktree; the user's checkout untouched. */
const dir = makeTmpDir("amx-check-base-");
afterAll(() => removeDir(dir));
const repo = join(dir, "repo");
const git = (...args: string[]) => {
  const r = Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: repo, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.toString().trim();
};

// a "test runner" that fails for each line of failing.txt, naming the file the way pytest does
const TEST = `while read -r t; do echo "FAILED tests/test_app.py::$t - AssertionError"; done < failing.txt; test ! -s failing.txt`;

test("a failure already on the base is pre-existing, a new one is not; the checkout, its index and worktree list stay as they were", async () => {
  mkdirSync(join(repo, "tests"), { recursive: true });
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "tests/test_app.py"), "x\n");
  writeFileSync(join(repo, "failing.txt"), "test_old\n");
  writeFileSync(join(repo, ".gitignore"), "node_modules/\n");
  git("add", ".");
  git("commit", "-qm", "base");
  const base = git("rev-parse", "HEAD");
  // the run's change: a new failure, uncommitted and staged in part, plus installed dependencies
  writeFileSync(join(repo, "failing.txt"), "test_old\ntest_new\n");
  git("add", "failing.txt");
  writeFileSync(join(repo, "new.txt"), "untracked\n");
  mkdirSync(join(repo, "node_modules/dep"), { recursive: true });
  writeFileSync(join(repo, "node_modules/dep/index.js"), "ok\n");
  const before = { status: git("status", "--porcelain"), index: readFileSync(join(repo, ".git/index")), worktrees: git("worktree", "list") };

  const { checks } = Config.parse({
    checks: {
      test: { command: TEST },
      lint: { command: "test -f node_modules/dep/index.js && echo deps-ok" },
      build: { command: "echo 'src/app.ts:1:1 broken'; exit 2" },
    },
  });
  const current = [await runCheck("test", checks.test!, { root: repo, logPath: join(dir, "logs/test.log"), round: 0, when: "after_implementation" })];
  expect(current[0]!.findings.map((f) => f.message)).toEqual(["test_old: AssertionError", "test_new: AssertionError"]);

  const onBase = await runChecksOnBase({
    repoDir: repo,
    baseCommit: base,
    checkout: repo,
    checks,
    logDir: join(dir, "logs/base"),
    logName: "checks/base",
    when: "after_implementation",
  });
  expect(onBase.map((r) => [r.name, r.status, r.log])).toEqual([
    ["test", "failed", "checks/base/test.log"],
    ["lint", "passed", "checks/base/lint.log"], // node_modules was linked in
    ["build", "failed", "checks/base/build.log"],
  ]);
  expect(onBase[0]!.findings.map((f) => f.message)).toEqual(["test_old: AssertionError"]);

  const [test_] = compareAllWithBase(current, onBase);
  expect(test_!.pre_existing).toBe(false);
  expect(test_!.findings.map((f) => [f.message, f.pre_existing])).toEqual([
    ["test_old: AssertionError", true],
    ["test_new: AssertionError", false],
  ]);
  expect(checkBlocks(test_!)).toBe(true);

  // nothing of the user's changed, and the temporary worktree is gone with its admin entry
  expect(git("status", "--porcelain")).toBe(before.status);
  expect(readFileSync(join(repo, ".git/index")).equals(before.index)).toBe(true);
  expect(git("worktree", "list")).toBe(before.worktrees);
  expect(existsSync(join(repo, ".git/worktrees")) ? readdirSync(join(repo, ".git/worktrees")) : []).toEqual([]);
  expect(git("fsck", "--no-progress")).toBe("");
}, 60_000);

test("the temporary worktree is removed when a check throws", async () => {
  const base = git("rev-parse", "HEAD");
  const { checks } = Config.parse({ checks: { test: { command: "true" } } });
  const boom = () => Promise.reject(new Error("runner broke"));
  await expect(
    runChecksOnBase({ repoDir: repo, baseCommit: base, checkout: repo, checks, logDir: join(dir, "logs/base2"), when: "after_implementation", run: boom }),
  ).rejects.toThrow("runner broke");
  expect(existsSync(join(repo, ".git/worktrees")) ? readdirSync(join(repo, ".git/worktrees")).filter((n) => n.startsWith(BASE_WORKTREE_PREFIX)) : []).toEqual(
    [],
  );
  expect(git("worktree", "list").split("\n")).toHaveLength(1);
});

test("an admin entry a killed run left behind (its temporary folder gone) is swept; a live one is kept", async () => {
  const base = git("rev-parse", "HEAD");
  const dead = join(repo, ".git/worktrees", `${BASE_WORKTREE_PREFIX}dead1`);
  mkdirSync(dead, { recursive: true });
  writeFileSync(join(dead, "gitdir"), "/tmp/agentmux-base-gone-for-good/.git\n");
  const other = join(repo, ".git/worktrees/someone-elses");
  mkdirSync(other, { recursive: true });
  writeFileSync(join(other, "gitdir"), "/nowhere/.git\n");
  const { checks } = Config.parse({ checks: { test: { command: "true" } } });
  await runChecksOnBase({ repoDir: repo, baseCommit: base, checkout: repo, checks, logDir: join(dir, "logs/base3"), when: "after_implementation" });
  expect(readdirSync(join(repo, ".git/worktrees"))).toEqual(["someone-elses"]);
});

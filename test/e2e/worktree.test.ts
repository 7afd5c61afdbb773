import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const socket = privateSocket();
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => killTmuxServer(socket));

test("two --worktree runs of one repository go on side by side; each commits on its branch and its worktree is removed", async () => {
  const repo = join(makeTmpDir(), "repo");
  const setup = await runBinary(bin, ["demo", "--ci", "--dir", repo], { socket });
  expect(setup.code).toBe(0);
  const headBefore = git(repo, "rev-parse", "HEAD");
  const branchBefore = git(repo, "rev-parse", "--abbrev-ref", "HEAD");
  const [a, b] = await Promise.all([
    runBinary(bin, ["run", "--ci", "--worktree", "Add a farewell module"], { cwd: repo, socket }),
    runBinary(bin, ["run", "--ci", "--worktree", "Add a counter module"], { cwd: repo, socket }),
  ]);
  if (a.code || b.code) console.error(a.stdout, a.stderr, b.stdout, b.stderr);
  expect([a.code, b.code]).toEqual([0, 0]);
  for (const [r, slug] of [
    [a, "add-a-farewell-module"],
    [b, "add-a-counter-module"],
  ] as const) {
    expect(r.stdout).toContain(`branch feature/${slug}`);
    expect(git(repo, "log", "-1", "--format=%an", `feature/${slug}`)).toBe("agentmux demo");
    expect(git(repo, "rev-parse", `feature/${slug}~1`)).toBe(headBefore);
    expect(existsSync(join(repo + "-worktrees", slug))).toBe(false);
  }
  // the main checkout was never touched; no worktree is left registered
  expect(git(repo, "rev-parse", "HEAD")).toBe(headBefore);
  expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe(branchBefore);
  expect(git(repo, "status", "--porcelain", "--untracked-files=no")).toBe("");
  expect(git(repo, "worktree", "list").split("\n")).toHaveLength(1);
  expect(Bun.spawnSync(["git", "fsck"], { cwd: repo }).exitCode).toBe(0);
}, 180_000);

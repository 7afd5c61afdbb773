import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { readState, spawnBinary } from "../fault/harness.ts";
import { simProject } from "./sim-project.ts";
import { git, runBinary } from "./harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #31.6, seen at 80×24: after a cancel, a failure or `clean`, the checkout stayed on the run's
 * feature branch, and `clean` of a worktree session left its worktree and branch behind.
 */
const scope = binaryScope();
const branches = (repo: string) => git(repo, "branch", "--format=%(refname:short)").split("\n").filter(Boolean).sort();

test("a canceled in-place run gives the checkout back to main (its work rides along); resume goes on and commits", async () => {
  const demo = startSlowDemo(scope.bin, { track: scope });
  const dir = await waitForPhase(demo.repo, "reviewing");
  demo.proc.kill("SIGTERM");
  expect((await demo.done).code).toBe(130);
  const branch = readState(dir)!.feature_branch!;
  expect(git(demo.repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
  expect(git(demo.repo, "status", "--porcelain")).toContain("src/"); // the run's files, uncommitted
  const r = await runBinary(scope.bin, ["resume", "--ci"], { cwd: demo.repo, socket: demo.socket });
  expect(r.code).toBe(0);
  expect(git(demo.repo, "rev-list", "--count", `main..${branch}`)).toBe("1");
  expect(git(demo.repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
}, 180_000);

test("clean of a live in-place run: back on main, the run's branch (no commit) gone", async () => {
  const demo = startSlowDemo(scope.bin, { track: scope });
  const dir = await waitForPhase(demo.repo, "planning");
  const branch = readState(dir)!.feature_branch!;
  const r = await runBinary(scope.bin, ["clean", "--force", dir.split("/").pop()!], { cwd: demo.repo, socket: demo.socket });
  expect(r.code).toBe(0);
  await demo.done;
  expect(git(demo.repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
  expect(branches(demo.repo)).not.toContain(branch);
}, 180_000);

test("clean of a stopped worktree run removes its worktree and branch when nothing uncommitted would be lost; says so otherwise", async () => {
  for (const dirty of [false, true]) {
    const repo = simProject(scope, 300);
    const socket = scope.socket();
    const run = spawnBinary(scope.bin, ["run", "Add alpha", "--ci", "--worktree", "--keep-session"], { cwd: repo, socket });
    const dir = await waitForPhase(repo, "planning");
    run.proc.kill("SIGTERM");
    await run.done;
    const st = readState(dir)!;
    if (dirty) writeFileSync(`${st.worktree_path}/notes.txt`, "mine\n");
    const r = await runBinary(scope.bin, ["clean", "--force", dir.split("/").pop()!], { cwd: repo, socket });
    expect(r.code).toBe(0);
    if (dirty) {
      expect(r.stdout).toContain(`kept the worktree ${st.worktree_path} and its branch ${st.feature_branch}: 1 uncommitted file(s) would be lost (notes.txt)`);
      expect(existsSync(st.worktree_path!)).toBe(true);
    } else {
      expect(r.stdout).toContain(`removed the worktree ${st.worktree_path}`);
      expect(existsSync(st.worktree_path!)).toBe(false);
      expect(branches(repo)).toEqual(["main"]);
    }
  }
}, 240_000);

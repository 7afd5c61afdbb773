import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { spawnBinary } from "../fault/harness.ts";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const socket = privateSocket();
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => killTmuxServer(socket));

/**
 * A file the user leaves out of the commit in a --worktree run was deleted with the worktree
 * after the commit, and nothing said so (`agentmux run --worktree`, space on a file in the
 * approval panel, a). Leaving a file out is not deleting it: the worktree stays, and the end of
 * the run says which files were left out and where they are.
 */
test("--worktree: a file left out of the commit keeps its worktree, and the run's end says where it is", async () => {
  const repo = join(makeTmpDir(), "repo");
  expect((await runBinary(bin, ["demo", "--ci", "--dir", repo], { socket })).code).toBe(0);
  const extra = join(repo, "..", "decide.yaml");
  writeFileSync(extra, "defaults:\n  completion:\n    skip_final_approval: false\n");
  const run = spawnBinary(bin, ["run", "--ci", "--worktree", "--config", extra, "Add a farewell module"], { cwd: repo, socket });
  const sessions = join(repo, ".agentmux", ".sessions");
  const { dir, worktree } = await waitFor(
    "the run to wait for a decision",
    () => {
      const id = existsSync(sessions)
        ? Bun.spawnSync(["ls", sessions])
            .stdout.toString()
            .split("\n")
            .find((n) => n && !n.startsWith("."))
        : undefined;
      if (!id) return null;
      const state = (() => {
        try {
          return JSON.parse(readFileSync(join(sessions, id, "state.json"), "utf8"));
        } catch {
          return null;
        }
      })();
      return state?.awaiting_decision ? { dir: join(sessions, id), worktree: state.worktree_path as string } : null;
    },
    { timeoutMs: 90_000 },
  );
  const left = git(worktree, "status", "--porcelain", "--untracked-files=all")
    .split("\n")
    .map((l) => l.slice(3))
    .find((p) => p.startsWith("test/"))!;
  expect(left).toBeTruthy();
  writeFileSync(join(dir, "08_completion", "approval.json"), JSON.stringify({ action: "approve", exclude_files: [left] }));
  const r = await run.done;
  expect(r.code).toBe(0);
  expect(existsSync(join(worktree, left))).toBe(true);
  expect(r.stdout).toContain(`left out of the commit as you chose: ${left}`);
  expect(r.stdout).toContain(worktree);
  // what was committed is on the branch; the file left out is not
  expect(git(repo, "show", "--stat", "--format=", "feature/add-a-farewell-module")).not.toContain(left);
}, 180_000);

import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeTmpDir, REPO_ROOT, removeDir } from "../helpers/tmp.ts";
import { stateIn, writeSession } from "../tui/fixtures.ts";

const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
const MAIN = join(REPO_ROOT, "src", "main.ts");

const project = makeTmpDir("amx-status-wt-");
afterAll(() => removeDir(project));

function status(...args: string[]) {
  const p = Bun.spawnSync([BUN, MAIN, "status", ...args], { cwd: project, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** A run that went to a worktree: the worktree is shown while it exists, and said to be removed after. */
describe("agentmux status of a worktree run", () => {
  const worktree = join(project, "repo-worktrees", "x");
  writeSession(project, "20250301-100000-x", stateIn("done", { worktree_path: worktree, commit_hash: "abc1234def", updated_at: "2025-03-01T10:00:00.000Z" }));

  test("while the worktree exists: its path", () => {
    mkdirSync(worktree, { recursive: true });
    const r = status("20250301-100000-x");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^Worktree\\s+${worktree}$`, "m"));
    expect(JSON.parse(status("20250301-100000-x", "--json").out)).toMatchObject({ worktree_path: worktree, worktree_removed: false });
  });

  test("after it was removed (at the commit): said so, not shown as if it were there", () => {
    rmSync(worktree, { recursive: true, force: true });
    const r = status("20250301-100000-x");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^Worktree\\s+removed \\(was ${worktree}\\)$`, "m"));
    expect(JSON.parse(status("20250301-100000-x", "--json").out)).toMatchObject({ worktree_path: worktree, worktree_removed: true });
  });
});

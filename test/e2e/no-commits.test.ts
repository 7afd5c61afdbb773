import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { binaryScope } from "../helpers/binary-scope.ts";
import { git, makeTmpDir, runBinary, tmuxServerRunning } from "./harness.ts";

/**
 * A run in a repository that has no commit yet (git init, nothing committed) is refused with
 * what is missing and the command that fixes it, and leaves nothing behind: no session folder,
 * no branch, no tmux server. It used to end in "internal error: switchToNewBranch needs a commit".
 */
const scope = binaryScope();

function emptyRepo(): string {
  const repo = makeTmpDir("amx-no-commits-");
  scope.dirs.push(repo);
  mkdirSync(join(repo, ".agentmux"));
  writeFileSync(join(repo, ".agentmux/config.yaml"), stringify({ version: 2, defaults: { provider: "sim" }, github: { pull_request: false, push: false } }));
  writeFileSync(join(repo, "README.md"), "# not committed yet\n");
  git(repo, "init", "-q", "-b", "main");
  return repo;
}

for (const extra of [[], ["--worktree"]]) {
  test(`run${extra.map((f) => " " + f).join("")} in a repository without commits: a clear refusal, nothing left behind`, async () => {
    const repo = emptyRepo();
    const socket = scope.socket();
    const r = await runBinary(scope.bin, ["run", "Add alpha", "--ci", ...extra], { cwd: repo, socket });
    expect(r.stderr).not.toContain("internal error");
    expect(r.stderr).toContain("the repository has no commits yet");
    expect(r.stderr).toContain("git commit");
    expect(r.code).toBe(1);
    const sessions = join(repo, ".agentmux/.sessions");
    expect(existsSync(sessions) ? readdirSync(sessions).filter((n) => !n.startsWith(".")) : []).toEqual([]);
    expect(git(repo, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    expect(git(repo, "branch", "--list")).toBe("");
    expect(tmuxServerRunning(socket)).toBe(false);
  }, 60_000);
}

import { afterEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { commitChanges } from "../../src/effects/git/commit.ts";
import { createWorktree, pruneWorktrees, removeWorktree } from "../../src/effects/git/worktree.ts";
import { BranchCheckedOutElsewhere, WorktreeOnOtherBranch } from "../../src/effects/git/errors.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { gitCli, makeRepo } from "./fixture.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
async function repo() {
  const base = makeTmpDir("amx-wt-");
  dirs.push(base);
  const dir = await makeRepo({ "a.txt": "a\n", "src/b.ts": "export const b = 1;\n" }, base);
  return { base, dir };
}

/** `git worktree list --porcelain` as { path → branch } */
function cliWorktrees(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const block of gitCli(dir, "worktree", "list", "--porcelain").trim().split("\n\n")) {
    const path = /^worktree (.+)$/m.exec(block)?.[1];
    const branch = /^branch refs\/heads\/(.+)$/m.exec(block)?.[1] ?? "(detached)";
    if (path) out[path] = branch;
  }
  return out;
}

describe("worktrees with isomorphic-git only", () => {
  test("create → the CLI lists it clean; a commit there is on the branch; fsck ok; reuse; remove", async () => {
    const { base, dir } = await repo();
    const { path } = await createWorktree(dir, { slug: "rate-limit", branch: "feature/rate-limit" });
    expect(path).toBe(join(base, "repo-worktrees", "rate-limit"));
    expect(cliWorktrees(dir)).toEqual({ [dir]: "main", [path]: "feature/rate-limit" });
    expect(fs.readFileSync(join(path, "src/b.ts"), "utf8")).toBe("export const b = 1;\n");
    expect(gitCli(path, "status", "--porcelain")).toBe("");
    fs.writeFileSync(join(path, "a.txt"), "changed in the worktree\n");
    const c = await commitChanges(path, { branch: "feature/rate-limit", message: "feat: wt", excludeFiles: [] });
    expect(gitCli(dir, "log", "-1", "--format=%H %s", "feature/rate-limit").trim()).toBe(`${c.hash} feat: wt`);
    expect(gitCli(path, "status", "--porcelain")).toBe("");
    expect(fs.readFileSync(join(dir, "a.txt"), "utf8")).toBe("a\n"); // main checkout untouched
    gitCli(dir, "fsck", "--strict");
    // same slug, same branch → reused
    expect(await createWorktree(dir, { slug: "rate-limit", branch: "feature/rate-limit" })).toEqual({ path, baseCommit: null });
    // same slug, other branch → error
    const err = await createWorktree(dir, { slug: "rate-limit", branch: "feature/other" }).catch((e) => e);
    expect(err).toBeInstanceOf(WorktreeOnOtherBranch);
    expect(err.data).toEqual({ path, branch: "feature/rate-limit", expected: "feature/other" });
    expect(err.message).toContain('exists on branch "feature/rate-limit"');
    await removeWorktree(dir, path);
    expect(fs.existsSync(path)).toBe(false);
    // the last worktree gone: no empty <repo>-worktrees/ folder is left beside the repository
    expect(fs.existsSync(join(base, "repo-worktrees"))).toBe(false);
    expect(cliWorktrees(dir)).toEqual({ [dir]: "main" });
    expect(gitCli(dir, "rev-parse", "feature/rate-limit").trim()).toBe(c.hash); // the branch stays
    gitCli(dir, "fsck", "--strict");
  });

  test("an existing branch is checked out; a branch checked out elsewhere is refused", async () => {
    const { dir } = await repo();
    gitCli(dir, "branch", "existing");
    const { path } = await createWorktree(dir, { slug: "e", branch: "existing" });
    expect(cliWorktrees(dir)[path]).toBe("existing");
    const err = await createWorktree(dir, { slug: "other", branch: "main" }).catch((e) => e);
    expect(err).toBeInstanceOf(BranchCheckedOutElsewhere);
    expect(err.data).toMatchObject({ branch: "main", worktree: dir });
    expect(err.message).toBe(`branch "main" is already checked out in ${dir}`);
    const err2 = await createWorktree(dir, { slug: "again", branch: "existing" }).catch((e) => e);
    expect(err2.message).toBe(`branch "existing" is already checked out in ${path}`);
    expect(fs.existsSync(join(dir, "..", "repo-worktrees", "again"))).toBe(false);
  });

  test("the git CLI can remove a worktree agentmux made", async () => {
    const { dir } = await repo();
    const { path } = await createWorktree(dir, { slug: "cli-rm", branch: "feature/cli-rm" });
    gitCli(dir, "worktree", "remove", path);
    expect(fs.existsSync(path)).toBe(false);
  });

  test("prune removes orphans but keeps dirty, unmerged, kept and foreign folders", async () => {
    const { base, dir } = await repo();
    const merged = (await createWorktree(dir, { slug: "merged", branch: "feature/merged" })).path;
    const dirty = (await createWorktree(dir, { slug: "dirty", branch: "feature/dirty" })).path;
    fs.writeFileSync(join(dirty, "wip.txt"), "not committed\n");
    const unmerged = (await createWorktree(dir, { slug: "unmerged", branch: "feature/unmerged" })).path;
    fs.writeFileSync(join(unmerged, "a.txt"), "only on this branch\n");
    await commitChanges(unmerged, { branch: "feature/unmerged", message: "wip", excludeFiles: [] });
    const kept = (await createWorktree(dir, { slug: "kept", branch: "feature/kept" })).path;
    const foreign = join(base, "repo-worktrees", "foreign");
    fs.mkdirSync(foreign);
    fs.writeFileSync(join(foreign, "notes.txt"), "mine\n");
    // a worktree whose folder vanished leaves a stale admin entry
    const vanished = (await createWorktree(dir, { slug: "vanished", branch: "feature/vanished" })).path;
    fs.rmSync(vanished, { recursive: true });

    const report = await pruneWorktrees(dir, [kept]);
    expect(report.removed).toEqual([merged]);
    expect(report.kept.map((k) => k.path)).toEqual([dirty, foreign, unmerged]);
    expect(report.kept[0].reason).toContain("uncommitted change");
    expect(report.kept[2].reason).toContain("commits that are on no other branch");
    expect(cliWorktrees(dir)).toEqual({ [dir]: "main", [dirty]: "feature/dirty", [unmerged]: "feature/unmerged", [kept]: "feature/kept" });
    expect(fs.readFileSync(join(dirty, "wip.txt"), "utf8")).toBe("not committed\n");
    gitCli(dir, "fsck", "--strict");

    // once the unmerged commits reach another branch, the worktree may go
    gitCli(dir, "branch", "backup", "feature/unmerged");
    expect((await pruneWorktrees(dir, [kept])).removed).toEqual([unmerged]);
  });
});

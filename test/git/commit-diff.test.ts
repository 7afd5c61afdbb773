/** A finished run's changes are its commit: the files against its first parent and each one's diff, as git shows them. */
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitChanges, commitFileDiff } from "../../src/effects/git/commit-diff.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const git = (cwd: string, ...a: string[]) => {
  const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...a], { cwd });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString();
};

test("added, modified and deleted files of a commit, and a file's diff, agree with git", async () => {
  const repo = makeTmpDir("amx-commitdiff-");
  dirs.push(repo);
  git(repo, "init", "-q");
  writeFileSync(join(repo, "keep.txt"), "same\n");
  writeFileSync(join(repo, "gone.txt"), "bye\n");
  writeFileSync(join(repo, "edit.ts"), "a\nb\nc\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "base");
  rmSync(join(repo, "gone.txt"));
  writeFileSync(join(repo, "edit.ts"), "a\nB\nc\n");
  writeFileSync(join(repo, "src-new.js"), "export const x = 1;\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "the run's commit");
  const head = git(repo, "rev-parse", "HEAD").trim();
  expect(await commitChanges(repo, head)).toEqual([
    { path: "edit.ts", status: "modified" },
    { path: "gone.txt", status: "deleted" },
    { path: "src-new.js", status: "added" },
  ]);
  const status = git(repo, "show", "--name-status", "--format=", head).trim().split("\n").sort();
  expect(status).toEqual(["A\tsrc-new.js", "D\tgone.txt", "M\tedit.ts"]);
  expect(await commitChanges(repo, head.slice(0, 7))).toEqual(await commitChanges(repo, head)); // as state.json records it
  const diff = await commitFileDiff(repo, head, "edit.ts");
  expect(diff).toContain("--- a/edit.ts\n+++ b/edit.ts\n");
  expect(diff).toContain("-b\n+B\n");
  expect(await commitFileDiff(repo, head, "gone.txt")).toContain("+++ /dev/null\n");
  // the root commit: everything added
  const root = git(repo, "rev-list", "--max-parents=0", "HEAD").trim();
  expect((await commitChanges(repo, root)).map((f) => f.status)).toEqual(["added", "added", "added"]);
});

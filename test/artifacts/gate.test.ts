import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import git from "isomorphic-git";
import { checkDoneArtifact } from "../../src/artifacts/index.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { validDone } from "./fixtures.ts";

let dir: string;
let outside: string;

/** A real repo: src/a.ts and src/b.ts committed, plus a .gitignore for *.log. */
async function makeRepo(): Promise<string> {
  const d = makeTmpDir("amx-gate-");
  await git.init({ fs, dir: d, defaultBranch: "main" });
  fs.mkdirSync(join(d, "src"));
  fs.writeFileSync(join(d, "src/a.ts"), "export const a = 1;\n");
  fs.writeFileSync(join(d, "src/b.ts"), "export const b = 1;\n");
  fs.writeFileSync(join(d, ".gitignore"), "*.log\n");
  await git.add({ fs, dir: d, filepath: ["src/a.ts", "src/b.ts", ".gitignore"] });
  await git.commit({ fs, dir: d, message: "init", author: { name: "t", email: "t@example.com" } });
  return d;
}

beforeEach(async () => {
  dir = await makeRepo();
  outside = makeTmpDir("amx-outside-");
});
afterEach(() => {
  removeDir(dir);
  removeDir(outside);
});

const check = (over: Record<string, unknown>, subplanIndex = 1) => checkDoneArtifact(validDone(over), { workDir: dir, subplanIndex });

describe("checkDoneArtifact against a real repository", () => {
  test("all claims real → no problems", async () => {
    fs.writeFileSync(join(dir, "src/new.ts"), "export {};\n");
    fs.mkdirSync(join(dir, "src/deep"));
    fs.writeFileSync(join(dir, "src/deep/staged.ts"), "x\n");
    await git.add({ fs, dir, filepath: "src/deep/staged.ts" });
    fs.writeFileSync(join(dir, "src/a.ts"), "export const a = 2;\n");
    fs.rmSync(join(dir, "src/b.ts"));
    expect(
      await check({ subplan_index: 1, files_created: ["src/new.ts", "./src/deep/staged.ts"], files_modified: ["src/a.ts"], files_deleted: ["src/b.ts"] }),
    ).toEqual([]);
  });

  test("the gate is a hard stop: FAILED is refused, PARTIAL only when the plan allows it, with what to do", async () => {
    const failed = await check({ status: "FAILED" }, 3);
    expect(failed).toEqual([
      {
        path: "status",
        message:
          'is "FAILED": submit_done records finished work only. Finish the tasks of plan 3 and make the tests pass, then set "status": "SUCCESS" and call submit_done again. If something you cannot fix blocks you, do not call submit_done: say what blocks you and wait for the user.',
      },
    ]);
    expect(await checkDoneArtifact(validDone({ status: "FAILED" }), { workDir: dir, subplanIndex: 3, allowPartial: true })).toEqual(failed);
    const partial = await check({ status: "PARTIAL" }, 2);
    expect(partial.map((p) => p.path)).toEqual(["status"]);
    expect(partial[0]!.message).toStartWith(
      'is "PARTIAL", but plan 2 does not allow a partial result (its sub-plan in plan.yaml has no "allow_partial: true"). Finish the tasks of plan 2, then set',
    );
    expect(await checkDoneArtifact(validDone({ status: "PARTIAL" }), { workDir: dir, subplanIndex: 2, allowPartial: true })).toEqual([]);
    const fix = await checkDoneArtifact(validDone({ status: "PARTIAL" }), { workDir: dir, subplanIndex: 1, fixRound: true });
    expect(fix[0]!.message).toStartWith(
      'is "PARTIAL", but a fix round must address every finding. Address every finding of 07_review/fix_request.md, then set',
    );
    // the status problem comes first, the false claims are still listed
    expect((await check({ status: "FAILED", files_created: ["src/ghost.ts"] })).map((p) => p.path)).toEqual(["status", "files_created[0]"]);
  });

  test("claims a nonexistent file", async () => {
    expect(await check({ files_created: ["src/ghost.ts"], files_modified: ["src/nope.ts"] })).toEqual([
      { path: "files_created[0]", message: '"src/ghost.ts" is claimed created but does not exist' },
      { path: "files_modified[0]", message: '"src/nope.ts" is claimed modified but does not exist' },
    ]);
  });

  test("claims modified but unchanged", async () => {
    expect(await check({ files_modified: ["src/a.ts"] })).toEqual([
      { path: "files_modified[0]", message: '"src/a.ts" is claimed modified but is unchanged since HEAD' },
    ]);
  });

  test("a file new since HEAD may be claimed modified (fix loop edits of uncommitted files)", async () => {
    fs.writeFileSync(join(dir, "src/new.ts"), "export {};\n");
    expect(await check({ files_modified: ["src/new.ts"] })).toEqual([]);
  });

  test("claims created but the file is tracked and unchanged, or tracked and modified", async () => {
    fs.writeFileSync(join(dir, "src/b.ts"), "changed\n");
    expect(await check({ files_created: ["src/a.ts", "src/b.ts"] })).toEqual([
      { path: "files_created[0]", message: '"src/a.ts" is claimed created but is tracked and unchanged since HEAD' },
      { path: "files_created[1]", message: '"src/b.ts" is claimed created but already exists in HEAD (list it under files_modified)' },
    ]);
  });

  test("claims deleted but the file is still there", async () => {
    expect(await check({ files_deleted: ["src/a.ts"] })).toEqual([{ path: "files_deleted[0]", message: '"src/a.ts" is claimed deleted but still exists' }]);
  });

  test("path traversal, absolute paths, .git and escaping symlinks are refused", async () => {
    fs.writeFileSync(join(outside, "secret.ts"), "x\n");
    fs.symlinkSync(join(outside, "secret.ts"), join(dir, "src/link.ts"));
    fs.symlinkSync(outside, join(dir, "out"));
    const ps = await check({
      files_created: ["../escape.ts", join(outside, "secret.ts"), "src/../../x.ts", "src/link.ts", "out/new.ts"],
      files_modified: [".git/config"],
    });
    expect(ps).toEqual([
      { path: "files_created[0]", message: `"../escape.ts" must not contain '..' (it has to stay inside the work directory)` },
      { path: "files_created[1]", message: `"${join(outside, "secret.ts")}" must be relative to the work directory, not absolute` },
      { path: "files_created[2]", message: `"src/../../x.ts" must not contain '..' (it has to stay inside the work directory)` },
      { path: "files_created[3]", message: '"src/link.ts" resolves through a symlink to a place outside the work directory' },
      { path: "files_created[4]", message: '"out/new.ts" resolves through a symlink to a place outside the work directory' },
      { path: "files_modified[0]", message: '".git/config" must not point into .git' },
    ]);
  });

  test("ignored files and directories are refused", async () => {
    fs.writeFileSync(join(dir, "build.log"), "x\n");
    fs.mkdirSync(join(dir, "lib"));
    fs.writeFileSync(join(dir, "lib/c.ts"), "x\n");
    expect(await check({ files_created: ["build.log", "lib"] })).toEqual([
      { path: "files_created[0]", message: '"build.log" is ignored by .gitignore, so it cannot be part of the change' },
      { path: "files_created[1]", message: '"lib" is a directory; list the files in it' },
    ]);
  });

  test("subplan_index must match the submitted index", async () => {
    expect(await check({ subplan_index: 2 }, 3)).toEqual([{ path: "subplan_index", message: "is 2 but submit_done was called for subplan 3" }]);
  });

  test("works in a linked worktree (via the worktree-aware fs)", async () => {
    const wt = join(outside, "wt");
    const r = Bun.spawnSync(["git", "-C", dir, "worktree", "add", "-q", wt, "-b", "feature"], { stderr: "pipe" });
    expect(r.exitCode).toBe(0);
    fs.writeFileSync(join(wt, "src/a.ts"), "changed in worktree\n");
    fs.writeFileSync(join(wt, "src/wt-new.ts"), "x\n");
    expect(
      await checkDoneArtifact(validDone({ files_created: ["src/wt-new.ts"], files_modified: ["src/a.ts", "src/b.ts"] }), { workDir: wt, subplanIndex: 1 }),
    ).toEqual([{ path: "files_modified[1]", message: '"src/b.ts" is claimed modified but is unchanged since HEAD' }]);
  });
});

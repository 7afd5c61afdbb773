import { afterEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { changedFiles, type FileChange } from "../../src/effects/git/changes.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { gitCli, makeRepo, writeFiles } from "./fixture.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

const BINARY_V1 = new Uint8Array([0, 1, 2, 3, 255, 0, 7]);
const BINARY_V2 = new Uint8Array([0, 1, 2, 9, 255, 0, 7, 8]);

/** A repository exercising every rule: ignore files, binary, rename, delete, submodule, nested repo, .agentmux. */
async function scenario(): Promise<string> {
  const base = makeTmpDir("amx-changes-");
  dirs.push(base);
  const dir = await makeRepo(
    {
      "README.md": "# demo\n",
      "src/a.ts": "export const a = 1;\n",
      "src/b.ts": "export const b = 2;\n",
      "old.txt": "renamed later\n",
      "gone.txt": "deleted later\n",
      "bin.dat": BINARY_V1,
      "touch.txt": "only the mtime changes\n",
      "script.sh": "echo hi\n",
      ".gitignore": "*.log\nbuild/\n!keep.log\n",
      "sub/.gitignore": "*.tmp\n",
      "sub/tracked.txt": "t\n",
    },
    base,
  );
  // a registered submodule, committed with the CLI
  const lib = await makeRepo({ "lib.txt": "lib\n" }, join(base, "libsrc"));
  gitCli(dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "mod");
  gitCli(dir, "commit", "-q", "-m", "add submodule");
  fs.writeFileSync(join(dir, "mod", "lib.txt"), "changed inside the submodule\n");
  // working-tree changes
  writeFiles(dir, {
    "src/a.ts": "export const a = 42;\n",
    "new.txt": "renamed later\n",
    "bin.dat": BINARY_V2,
    "debug.log": "ignored\n",
    "keep.log": "re-included\n",
    "build/out.js": "ignored dir\n",
    "sub/x.tmp": "nested ignore\n",
    "sub/y.txt": "new file\n",
    ".agentmux/.sessions/s1/state.json": "{}\n",
    ".agentmux/config.yaml": "x: 1\n",
    "vendor/nested/file.txt": "inside a nested repository\n",
  });
  gitCli(join(dir, "vendor", "nested"), "init", "-q");
  fs.rmSync(join(dir, "old.txt"));
  fs.rmSync(join(dir, "gone.txt"));
  fs.chmodSync(join(dir, "script.sh"), 0o755);
  fs.symlinkSync("src/b.ts", join(dir, "link"));
  const future = new Date(Date.now() + 5000);
  fs.utimesSync(join(dir, "touch.txt"), future, future);
  return dir;
}

const EXPECTED: FileChange[] = [
  { path: "bin.dat", status: "modified" },
  { path: "gone.txt", status: "deleted" },
  { path: "keep.log", status: "added" },
  { path: "link", status: "added" },
  { path: "new.txt", status: "added" },
  { path: "old.txt", status: "deleted" },
  { path: "script.sh", status: "modified" },
  { path: "src/a.ts", status: "modified" },
  { path: "sub/y.txt", status: "added" },
];

describe("changedFiles", () => {
  for (const engine of ["iso", "cli"] as const) {
    test(`${engine}: ignore rules, binary, rename, delete, mode, symlink; submodule and .agentmux untouched`, async () => {
      const dir = await scenario();
      expect(await changedFiles(dir, engine)).toEqual(EXPECTED);
      // the CLI agrees on the untracked/ignored split
      expect(gitCli(dir, "status", "--porcelain", "--ignored=matching", "-uall")).toContain("!! sub/x.tmp");
    });

    test(`${engine}: same answer after the git CLI rewrote the index (stat cache from git)`, async () => {
      const dir = await scenario();
      gitCli(dir, "update-index", "-q", "--refresh");
      gitCli(dir, "status", "--porcelain");
      expect(await changedFiles(dir, engine)).toEqual(EXPECTED);
    });

    test(`${engine}: staged-only changes, removed-from-index files, and a clean tree`, async () => {
      const base = makeTmpDir("amx-changes-");
      dirs.push(base);
      const dir = await makeRepo({ "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" }, base);
      expect(await changedFiles(dir, engine)).toEqual([]);
      fs.writeFileSync(join(dir, "a.txt"), "staged\n");
      gitCli(dir, "add", "a.txt");
      gitCli(dir, "rm", "-q", "--cached", "b.txt"); // still on disk, same content as HEAD
      gitCli(dir, "rm", "-q", "--cached", "c.txt");
      fs.writeFileSync(join(dir, "c.txt"), "different\n");
      expect(await changedFiles(dir, engine)).toEqual([
        { path: "a.txt", status: "modified" },
        { path: "c.txt", status: "modified" },
      ]);
    });

    test(`${engine}: core.filemode=false ignores the executable bit, as git does`, async () => {
      const dir = await scenario();
      gitCli(dir, "config", "core.filemode", "false");
      expect(await changedFiles(dir, engine)).toEqual(EXPECTED.filter((c) => c.path !== "script.sh"));
    });

    test(`${engine}: a repository without commits lists every non-ignored file as added`, async () => {
      const base = makeTmpDir("amx-changes-");
      dirs.push(base);
      const dir = await makeRepo({}, base);
      writeFiles(dir, { "x.txt": "x\n", "a/b.txt": "b\n", ".gitignore": "*.o\n", "y.o": "obj" });
      expect(await changedFiles(dir, engine)).toEqual([
        { path: ".gitignore", status: "added" },
        { path: "a/b.txt", status: "added" },
        { path: "x.txt", status: "added" },
      ]);
    });
  }

  test("auto engine works from a subdirectory and matches both engines", async () => {
    const dir = await scenario();
    expect(await changedFiles(join(dir, "src"))).toEqual(EXPECTED);
  });
});

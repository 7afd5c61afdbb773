import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { removeDir } from "../helpers/tmp.ts";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const socket = privateSocket();
const dirs: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => {
  killTmuxServer(socket);
  dirs.forEach(removeDir);
});

/**
 * #18.10: tmux expands formats in the start directory of new-session / new-window (`#(cmd)`
 * runs a command, `#H` is the host name) and the sim parsed the prompt reference up to the
 * first space or quote. A repository under such a path must run to its commit, and nothing in
 * the path may run.
 */
test("a whole run in a repository whose path holds #, #(…), #{…}, x#Hidden, spaces, quotes and unicode commits, and runs nothing", async () => {
  const root = makeTmpDir("amx-hostile-");
  dirs.push(root);
  const canary = join(root, "pwned");
  const repo = join(root, `a#b #{session_name} x#Hidden it's "q" 日本 é`, `#(touch ${canary})`, "repo ##{ #");
  mkdirSync(join(repo, ".."), { recursive: true });
  const setup = await runBinary(bin, ["demo", "--ci", "--dir", repo], { socket });
  if (setup.code !== 0) console.error(setup.stdout, setup.stderr);
  expect(setup.code).toBe(0);
  const r = await runBinary(bin, ["run", "--ci", "Add a farewell module"], { cwd: repo, socket });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  expect(git(repo, "log", "-1", "--format=%s", "feature/add-a-farewell-module")).not.toBe("");
  expect(git(repo, "show", "--name-only", "--format=", "feature/add-a-farewell-module")).not.toBe("");
  expect(existsSync(canary)).toBe(false);
  expect(Bun.spawnSync(["git", "fsck", "--strict"], { cwd: repo }).exitCode).toBe(0);
}, 240_000);

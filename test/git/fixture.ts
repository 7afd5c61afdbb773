import * as git from "isomorphic-git";
import * as fs from "node:fs";
import { dirname, join } from "node:path";
import { makeTmpDir } from "../helpers/tmp.ts";

/** A real repository made with isomorphic-git, with an author in its own config. */
export async function makeRepo(files: Record<string, string | Uint8Array> = { "README.md": "# demo\n" }, base = makeTmpDir("amx-git-")): Promise<string> {
  const dir = join(base, "repo");
  fs.mkdirSync(dir, { recursive: true });
  await git.init({ fs, dir, defaultBranch: "main" });
  // what `git init` writes on Linux (isomorphic-git's init writes filemode/symlinks = false)
  for (const [path, value] of [
    ["core.filemode", true],
    ["core.symlinks", true],
    ["core.ignorecase", false],
  ] as const) {
    await git.setConfig({ fs, dir, path, value });
  }
  await git.setConfig({ fs, dir, path: "user.name", value: "Test Author" });
  await git.setConfig({ fs, dir, path: "user.email", value: "test@example.com" });
  if (Object.keys(files).length) {
    writeFiles(dir, files);
    await git.add({ fs, dir, filepath: Object.keys(files) });
    await git.commit({ fs, dir, message: "initial\n", author: { name: "Test Author", email: "test@example.com" } });
  }
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [p, content] of Object.entries(files)) {
    fs.mkdirSync(dirname(join(dir, p)), { recursive: true });
    fs.writeFileSync(join(dir, p), content);
  }
}

/** Run the real git CLI (a test oracle); throws with stderr on failure. */
export function gitCli(cwd: string, ...args: string[]): string {
  const p = Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } });
  if (p.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed (${p.exitCode}): ${p.stderr.toString()}`);
  return p.stdout.toString();
}

export function gitCliResult(cwd: string, ...args: string[]): { code: number; out: string; err: string } {
  const p = Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? 1, out: p.stdout.toString(), err: p.stderr.toString() };
}

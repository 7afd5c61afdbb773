import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import git from "isomorphic-git";
import { makeTmpDir, REPO_ROOT } from "../helpers/tmp.ts";

export const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
export const MAIN = join(REPO_ROOT, "src", "main.ts");

export type Sandbox = { root: string; repo: string; home: string; bin: string; env: Record<string, string> };

/** A temp git repository (branch main, one commit), an empty HOME and a PATH folder for fake CLIs. */
export async function sandbox(): Promise<Sandbox> {
  const root = makeTmpDir("amx-onboard-");
  const repo = join(root, "repo");
  const home = join(root, "home");
  const bin = join(root, "bin");
  for (const d of [repo, home, bin]) mkdirSync(d, { recursive: true });
  await git.init({ fs: nodeFs, dir: repo, defaultBranch: "main" });
  writeFileSync(join(repo, "README.md"), "# demo\n");
  await git.add({ fs: nodeFs, dir: repo, filepath: "README.md" });
  await git.commit({ fs: nodeFs, dir: repo, message: "Initial commit", author: { name: "t", email: "t@example.com" } });
  const env = { PATH: bin, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), SHELL: "/bin/bash", TERM: "xterm-256color" };
  return { root, repo, home, bin, env };
}

/** A fake agent CLI on the sandbox PATH that answers `--version`. */
export function fakeCli(sb: Sandbox, name: string, version: string): void {
  const p = join(sb.bin, name);
  writeFileSync(p, `#!/bin/sh\necho "${version}"\n`);
  chmodSync(p, 0o755);
}

/** `agentmux <args>` from source, stdin not a terminal. */
export function agentmux(sb: Sandbox, args: string[], cwd = sb.repo) {
  const p = Bun.spawnSync([BUN, MAIN, ...args], { cwd, env: sb.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

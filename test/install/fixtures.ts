/**
 * Fixtures for install.sh: a folder of fake release files (small shell scripts that print a
 * version) with a real SHA256SUMS, and a bin folder that holds exactly the tools the
 * installer may use — so a test decides whether tmux exists and what `uname` says.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/tmp.ts";

export const INSTALL_SH = join(REPO_ROOT, "install.sh");
export const PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"] as const;

const TOOLS = [
  "sh",
  "uname",
  "mktemp",
  "rm",
  "cp",
  "chmod",
  "mkdir",
  "mv",
  "cmp",
  "awk",
  "sed",
  "head",
  "dirname",
  "basename",
  "sha256sum",
  "cat",
  "printf",
  "curl",
  "tmux",
  "env",
];

/** The fake binary's text; `extra` lets a test build two different binaries of one version. */
export function fakeBinary(version: string, platform: string, extra = ""): string {
  return `#!/bin/sh\n# fake agentmux for ${platform}${extra}\necho "agentmux ${version}"\n`;
}

export function writeRelease(dir: string, version: string, extra = ""): string {
  mkdirSync(dir, { recursive: true });
  for (const p of PLATFORMS) writeFileSync(join(dir, `agentmux-${p}`), fakeBinary(version, p, extra), { mode: 0o755 });
  const sums = Bun.spawnSync(["sha256sum", ...PLATFORMS.map((p) => `agentmux-${p}`)], { cwd: dir, stdout: "pipe" });
  if (sums.exitCode !== 0) throw new Error("sha256sum failed while writing the fake release");
  writeFileSync(join(dir, "SHA256SUMS"), sums.stdout);
  writeFileSync(join(dir, "VERSION"), `${version}\n`);
  return dir;
}

export type ToolOptions = { without?: string[]; uname?: { s: string; m: string }; tmuxVersion?: string; extra?: Record<string, string> };

/** A PATH folder with symlinks to the real tools, minus `without`, plus fakes where asked. */
export function toolDir(dir: string, opts: ToolOptions = {}): string {
  mkdirSync(dir, { recursive: true });
  for (const tool of TOOLS) {
    if (opts.without?.includes(tool)) continue;
    if (tool === "uname" && opts.uname) continue;
    if (tool === "tmux" && opts.tmuxVersion) continue;
    const real = Bun.which(tool);
    if (real) symlinkSync(real, join(dir, tool));
  }
  if (opts.uname) {
    script(dir, "uname", `case "$1" in -s) echo "${opts.uname.s}" ;; -m) echo "${opts.uname.m}" ;; *) echo "${opts.uname.s}" ;; esac`);
  }
  if (opts.tmuxVersion) script(dir, "tmux", `[ "$1" = -V ] && echo "tmux ${opts.tmuxVersion}"`);
  for (const [name, body] of Object.entries(opts.extra ?? {})) script(dir, name, body);
  return dir;
}

function script(dir: string, name: string, body: string): void {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/sh\n${body}\n`);
  chmodSync(p, 0o755);
}

export type InstallRun = { code: number; out: string; err: string; all: string };

export function runInstall(args: string[], env: Record<string, string>, cwd?: string): InstallRun {
  const p = Bun.spawnSync(["/bin/sh", INSTALL_SH, ...args], { cwd, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const out = p.stdout.toString();
  const err = p.stderr.toString();
  return { code: p.exitCode ?? -1, out, err, all: out + err };
}

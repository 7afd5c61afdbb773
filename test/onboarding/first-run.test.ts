import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { detectBaseBranch } from "../../src/onboarding/base-branch.ts";
import { completionTarget, installCompletionLine } from "../../src/onboarding/completions.ts";
import { FIRST_RUN_MARKER, firstRunNotice, noAgentCliNotice, notGitRepoHelp } from "../../src/onboarding/first-run.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { sandbox } from "./helpers.ts";

let dirs: string[] = [];
afterEach(() => {
  dirs.forEach(removeDir);
  dirs = [];
});
const tmp = () => {
  const d = makeTmpDir("amx-first-");
  dirs.push(d);
  return d;
};
const builtin = (env: Record<string, string>) => loadConfig({ projectDir: tmp(), env }).config;

test("firstRunNotice: once per project without a config, naming each role's provider and the commands to change it", () => {
  const home = tmp();
  const config = builtin({ HOME: home });
  const project = tmp();
  const text = firstRunNotice(project, config)!;
  expect(text).toContain("  claude (the CLI's default model): every role");
  expect(text).toContain("agentmux init");
  expect(text).toContain("agentmux configure");
  expect(existsSync(join(project, FIRST_RUN_MARKER))).toBe(true);
  expect(firstRunNotice(project, config)).toBeNull();

  const configured = tmp();
  mkdirSync(join(configured, ".agentmux"));
  writeFileSync(join(configured, ".agentmux", "config.yaml"), "version: 2\n");
  expect(firstRunNotice(configured, config)).toBeNull();
  expect(existsSync(join(configured, FIRST_RUN_MARKER))).toBe(false);

  const mixed = { ...config, roles: { coder: { provider: "codex", model: "gpt-5", args: null } } };
  const lines = firstRunNotice(tmp(), mixed)!;
  expect(lines).toContain("  codex (model gpt-5): coder\n");
  expect(lines).toContain("  claude (the CLI's default model): product-manager, architect, planner, designer, reviewer_logic");
});

test("noAgentCliNotice: only when none of the configured CLIs is on PATH; the simulator needs none", () => {
  const config = builtin({ HOME: tmp() });
  const bin = tmp();
  const note = noAgentCliNotice(config, bin)!;
  expect(note).toContain("claude");
  expect(note).toContain("agentmux doctor");
  expect(note).toContain("agentmux demo");
  writeFileSync(join(bin, "claude"), "#!/bin/sh\n");
  chmodSync(join(bin, "claude"), 0o755);
  expect(noAgentCliNotice(config, bin)).toBeNull();
  expect(noAgentCliNotice({ ...config, defaults: { ...config.defaults, provider: "sim" } }, tmp())).toBeNull();
});

test("notGitRepoHelp gives the commands to start a repository", () => {
  const help = notGitRepoHelp("/work/x");
  expect(help).toContain("not a git repository");
  expect(help).toContain('git init && git add -A && git commit -m "Initial commit"');
});

test("detectBaseBranch: origin/HEAD wins over the checked-out branch; not a repository is null", async () => {
  const sb = await sandbox();
  dirs.push(sb.root);
  expect(await detectBaseBranch(sb.repo)).toBe("main");
  mkdirSync(join(sb.repo, ".git", "refs", "remotes", "origin"), { recursive: true });
  writeFileSync(join(sb.repo, ".git", "refs", "remotes", "origin", "HEAD"), "ref: refs/remotes/origin/develop\n");
  expect(await detectBaseBranch(sb.repo)).toBe("develop");
  expect(await detectBaseBranch(tmp())).toBeNull();
});

test("completion line: the right rc file, appended once", () => {
  const home = tmp();
  writeFileSync(join(home, ".bash_profile"), "export X=1");
  const bash = completionTarget({ HOME: home, SHELL: "/usr/bin/bash" })!;
  expect(bash.rcFile).toBe(join(home, ".bash_profile"));
  expect(installCompletionLine(bash)).toBe(true);
  expect(installCompletionLine(bash)).toBe(false);
  const text = require("node:fs").readFileSync(bash.rcFile, "utf8");
  expect(text).toBe('export X=1\n\n# agentmux shell completions\ncommand -v agentmux >/dev/null && eval "$(agentmux completions bash)"\n');
  expect(completionTarget({ HOME: home, SHELL: "/bin/zsh", ZDOTDIR: join(home, "z") })!.rcFile).toBe(join(home, "z", ".zshrc"));
  const fish = completionTarget({ HOME: home, SHELL: "/usr/bin/fish" })!;
  expect(fish.rcFile).toBe(join(home, ".config", "fish", "config.fish"));
  expect(fish.line).toBe("command -v agentmux >/dev/null && agentmux completions fish | source");
  expect(completionTarget({ HOME: home, SHELL: "/bin/tcsh" })).toBeNull();
});

import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { loadConfig } from "../../src/config/load.ts";
import { isolatedBinary, removeDir } from "../helpers/tmp.ts";
import { agentmux, fakeCli, sandbox, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
afterEach(() => removeDir(sb.root));

const read = (sb: Sandbox, rel: string) => readFileSync(join(sb.repo, rel), "utf8");
const count = (text: string, line: string) => text.split("\n").filter((l) => l === line).length;

test("init --defaults picks the first detected CLI, writes only what differs, and a re-run changes nothing", async () => {
  sb = await sandbox();
  fakeCli(sb, "gemini", "0.9.1");
  fakeCli(sb, "codex", "codex-cli 0.42.0");
  const r = agentmux(sb, ["init", "--defaults"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`✓ codex     ${join(sb.bin, "codex")}  (codex-cli 0.42.0)`);
  expect(r.stdout).toContain("✗ claude    not found on PATH");
  // gemini found: its consumer-account retirement is told, and agy offered (#27)
  expect(r.stdout).toContain("Note: Google retired Gemini CLI for consumer Google accounts (AI Pro/Ultra, free Code Assist) on 2026-06-18");
  expect(r.stdout).toContain("Install agy (https://antigravity.google) and choose it as the provider if that is your account.");
  const text = read(sb, ".agentmux/config.yaml");
  expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=./config.schema.json");
  expect(parse(text)).toEqual({ version: 2, defaults: { provider: "codex" } });
  expect(JSON.parse(read(sb, ".agentmux/config.schema.json")).title).toContain("agentmux configuration");
  const { config } = loadConfig({ projectDir: sb.repo, env: sb.env });
  expect(config.defaults.provider).toBe("codex");
  const ignore = read(sb, ".gitignore");
  for (const e of [".agentmux/.sessions/", ".agentmux/.last_completion.json"]) expect(count(ignore, e)).toBe(1);
  expect(read(sb, "AGENTS.md")).toContain("## Test command");
  expect(existsSync(join(sb.repo, "CLAUDE.md"))).toBe(false);
  expect(r.stdout).toContain("wrote      .agentmux/config.yaml");

  const before = [".agentmux/config.yaml", ".agentmux/config.schema.json", ".gitignore", "AGENTS.md"].map((f) => read(sb, f));
  const again = agentmux(sb, ["init", "--defaults"]);
  expect(again.code).toBe(0);
  expect(again.stdout).not.toContain("wrote ");
  expect(again.stdout).toContain("unchanged  .agentmux/config.yaml");
  expect([".agentmux/config.yaml", ".agentmux/config.schema.json", ".gitignore", "AGENTS.md"].map((f) => read(sb, f))).toEqual(before);
});

test("#31 with no agent CLI (compiled binary): no provider is chosen for the user, init says so and how to install one, and the note points to doctor and demo", async () => {
  sb = await sandbox();
  const p = Bun.spawnSync([isolatedBinary(), "init", "--defaults"], { cwd: sb.repo, env: sb.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const r = { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
  expect(r.code).toBe(0);
  expect(parse(read(sb, ".agentmux/config.yaml"))).toEqual({ version: 2 });
  expect(r.stdout).toContain("No agent CLI was found on PATH: no default provider was chosen");
  expect(r.stdout).toContain("npm install -g @anthropic-ai/claude-code");
  expect(r.stdout).toContain("agentmux doctor");
  expect(r.stdout).toContain("agentmux demo");
  expect(read(sb, "CLAUDE.md")).toContain("# CLAUDE");
});

test("not a terminal, no --defaults: no question is asked, an existing config keeps its provider", async () => {
  sb = await sandbox();
  fakeCli(sb, "claude", "2.0.1 (Claude Code)");
  writeFileSync(join(sb.repo, ".gitignore"), "node_modules\n/.agentmux/.sessions\n");
  agentmux(sb, ["configure", "--role", "coder", "--provider", "gemini"]);
  writeFileSync(join(sb.repo, ".agentmux/config.yaml"), read(sb, ".agentmux/config.yaml") + "defaults:\n  provider: qwen # ours\n");
  const r = agentmux(sb, ["init"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).not.toContain("[Y/n]");
  const cfg = parse(read(sb, ".agentmux/config.yaml"));
  expect(cfg.defaults.provider).toBe("qwen");
  expect(cfg.roles.coder.provider).toBe("gemini");
  const ignore = read(sb, ".gitignore");
  expect(ignore.startsWith("node_modules\n/.agentmux/.sessions\n")).toBe(true);
  expect(ignore).not.toContain("\n.agentmux/.sessions/");
  expect(count(ignore, ".agentmux/.last_completion.json")).toBe(1);
});

test("a broken project config stops init with the file and key, and nothing is written", async () => {
  sb = await sandbox();
  agentmux(sb, ["init", "--defaults"]);
  writeFileSync(join(sb.repo, ".agentmux/config.yaml"), "version: 2\ngithub:\n  drafts: true\n");
  const ignoreBefore = read(sb, ".gitignore");
  const r = agentmux(sb, ["init", "--defaults"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(".agentmux/config.yaml: github.drafts: unknown key");
  expect(read(sb, ".agentmux/config.yaml")).toBe("version: 2\ngithub:\n  drafts: true\n");
  expect(read(sb, ".gitignore")).toBe(ignoreBefore);
});

test("init offers the project kind's worktree steps: an npm project with a .env gets npm ci and .env* (no questions: applied once, said)", async () => {
  sb = await sandbox();
  fakeCli(sb, "claude", "2.0.1 (Claude Code)");
  writeFileSync(join(sb.repo, "package.json"), '{"name": "app"}\n');
  writeFileSync(join(sb.repo, "package-lock.json"), "{}\n");
  writeFileSync(join(sb.repo, ".env"), "KEY=1\n");
  const r = agentmux(sb, ["init", "--defaults"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(
    "Worktree runs (--worktree) of this npm project prepare each new worktree first: npm ci; copy .env* (worktree.setup / worktree.copy)",
  );
  expect(parse(read(sb, ".agentmux/config.yaml")).worktree).toEqual({ setup: ["npm ci"], copy: [".env*"] });
  const again = agentmux(sb, ["init", "--defaults"]);
  expect(again.stdout).toContain("unchanged  .agentmux/config.yaml");
  expect(again.stdout).not.toContain("Worktree runs");
});

test("worktreeDefaults: each project kind's install step", async () => {
  const { worktreeDefaults } = await import("../../src/onboarding/project-kind.ts");
  sb = await sandbox();
  const cases: [string[], string[], string[]][] = [
    [["bun.lock", "package.json"], ["bun"], ["bun install --frozen-lockfile"]],
    [["pnpm-lock.yaml", "package.json"], ["pnpm"], ["pnpm install --frozen-lockfile"]],
    [["yarn.lock", ".yarnrc.yml"], ["yarn"], ["yarn install --immutable"]],
    [["package.json"], ["npm"], ["npm install"]],
    [["uv.lock", "pyproject.toml"], ["uv"], ["uv sync"]],
    [["requirements.txt"], ["pip"], ["python3 -m venv .venv && .venv/bin/pip install -r requirements.txt"]],
    [["go.mod"], ["go"], ["go mod download"]],
    [
      ["Cargo.toml", "package-lock.json"],
      ["npm", "cargo"],
      ["npm ci", "cargo fetch"],
    ],
  ];
  for (const [files, kinds, setup] of cases) {
    const dir = join(sb.root, files.join("+"));
    require("node:fs").mkdirSync(dir);
    for (const f of files) writeFileSync(join(dir, f), "");
    writeFileSync(join(dir, ".env.example"), "");
    expect(worktreeDefaults(dir)).toEqual({ kinds, setup, copy: [] });
  }
});

test("init where a run cannot start yet says what is missing and does not say Ready", async () => {
  sb = await sandbox();
  fakeCli(sb, "claude", "2.0.1 (Claude Code)");
  const ready = 'Ready. Start a run with: agentmux "describe the change you want"';
  expect(agentmux(sb, ["init", "--defaults"]).stdout).toContain(ready);

  const fresh = join(sb.root, "fresh"); // git init, nothing committed yet
  require("node:fs").mkdirSync(fresh);
  Bun.spawnSync(["git", "init", "-q", fresh]);
  const noCommit = agentmux(sb, ["init", "--defaults"], fresh);
  expect(noCommit.code).toBe(0);
  expect(noCommit.stdout).toContain(`${fresh} has no commit yet. agentmux starts each run's branch from a commit, so make the first one:`);
  expect(noCommit.stdout).toContain(`cd "${fresh}" && git add -A && git commit -m "Initial commit"`);
  expect(noCommit.stdout).not.toContain("Ready.");

  const plain = join(sb.root, "plain"); // not a git repository
  require("node:fs").mkdirSync(plain);
  const notGit = agentmux(sb, ["init", "--defaults"], plain);
  expect(notGit.stdout).toContain(`${plain} is not a git repository.`);
  expect(notGit.stdout).not.toContain("Ready.");

  const noCli = agentmux({ ...sb, env: { ...sb.env, PATH: join(sb.root, "empty-bin") } }, ["init", "--defaults"]);
  expect(noCli.stdout).toContain("None of the agent CLIs this configuration uses is on PATH: claude.");
  expect(noCli.stdout).not.toContain("Ready.");
});

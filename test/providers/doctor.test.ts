import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runProcess } from "../../src/effects/process/run.ts";
import { loadConfig } from "../../src/config/load.ts";
import { formatDoctor, parseTmuxVersion, runDoctor } from "../../src/providers/doctor.ts";
import type { Config } from "../../src/schema/config.ts";
import { BINARY, makeTmpDir, removeDir } from "../helpers/tmp.ts";

let root: string;
let bin: string;
let config: Config;

beforeEach(() => {
  root = makeTmpDir("amx-doctor-");
  bin = join(root, "bin");
  mkdirSync(bin);
  config = loadConfig({ projectDir: root, env: { HOME: root } }).config;
});
afterEach(() => removeDir(root));

/** A fake CLI: a tiny shell script on the temp PATH. */
function fake(name: string, script: string) {
  const path = join(bin, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

const doctor = (o: { timeoutMs?: number; env?: Record<string, string> } = {}) =>
  runDoctor(config, {
    path: bin,
    exec: runProcess,
    tmuxVersionArgv: [join(bin, "tmux"), "-V"],
    projectDir: root,
    home: root,
    selfCommand: ["/opt/agentmux"],
    ...o,
  });

describe("agentmux doctor with fake CLIs", () => {
  test("everything present: all ✓, ok", async () => {
    fake("tmux", 'echo "tmux 3.3a"');
    fake("claude", 'echo "2.1.197 (Claude Code)"');
    fake("gh", 'echo "Logged in to github.com" >&2; exit 0');
    const report = await doctor();
    const text = formatDoctor(report);
    expect(report.ok).toBe(true);
    expect(text).toContain("✓ tmux: tmux 3.3a\n");
    expect(text).toContain(`✓ claude (all roles): ${join(bin, "claude")}: 2.1.197 (Claude Code)\n`);
    expect(text).toContain("✓ claude wiring: MCP: the run's endpoint over HTTP via --mcp-config");
    expect(text).toContain(`✓ gh: ${join(bin, "gh")}: logged in\n`);
    expect(text).not.toContain("✗");
  });

  test("missing CLI, old tmux, gh logged out: ✗ with fixes, not ok", async () => {
    fake("tmux", 'echo "tmux 3.1c"');
    config.roles.coder = { provider: "codex", model: null, args: null };
    fake("claude", 'echo "2.1.197"');
    fake("gh", 'echo "You are not logged into any GitHub hosts." >&2; exit 1');
    const report = await doctor();
    const text = formatDoctor(report);
    expect(report.ok).toBe(false);
    expect(text).toContain("✗ tmux: tmux 3.1c\n    fix: upgrade tmux to 3.2 or newer\n");
    expect(text).toContain('✗ codex (coder): "codex" not found on PATH\n    fix: install it: npm i -g @openai/codex');
    expect(text).toContain("✓ codex wiring: MCP: the run's endpoint over HTTP via -c mcp_servers.agentmux.url + bearer_token_env_var");
    expect(text).toContain("trust: pre-trusted per invocation (-c projects override)");
    // gh is optional: a run without it commits and pushes and says no pull request is opened
    expect(text).toContain(
      `○ gh: ${join(bin, "gh")}: not logged in (You are not logged into any GitHub hosts.); runs commit and push, but open no pull request\n    fix: run: gh auth login\n`,
    );
  });

  test("cursor and agy missing: the fix says how to install each (neither is on npm), not 'install \"cursor\"'", async () => {
    fake("tmux", 'echo "tmux 3.4"');
    fake("claude", 'echo "2.1.197"');
    config.roles.coder = { provider: "cursor", model: null, args: null };
    config.roles.architect = { provider: "agy", model: null, args: null };
    const text = formatDoctor(await doctor());
    expect(text).toContain(
      '✗ cursor (coder): "cursor-agent" not found on PATH\n    fix: install it: Cursor\'s CLI installer from cursor.com (it puts cursor-agent in ~/.local/bin or ~/.cursor/bin: have that on PATH); or fix providers.cursor.command',
    );
    expect(text).toContain(
      '✗ agy (architect): "agy" not found on PATH\n    fix: install it: curl -fsSL https://antigravity.google/cli/install.sh | bash (it puts agy in ~/.local/bin: have that on PATH); or fix providers.agy.command',
    );
  });

  test("gh missing with pull requests on is optional (○): the report stays ok", async () => {
    fake("tmux", 'echo "tmux 3.4"');
    config.defaults.provider = "sim";
    config.github.pull_request = true;
    const report = await doctor();
    expect(report.ok).toBe(true);
    expect(formatDoctor(report)).toContain("○ gh: not found on PATH (runs commit and push, but open no pull request)\n    fix: install the GitHub CLI");
  });

  test("gh is optional without pull requests; sim needs no CLI", async () => {
    fake("tmux", 'echo "tmux 3.4"');
    config.defaults.provider = "sim";
    config.github.pull_request = false;
    const report = await doctor();
    expect(report.ok).toBe(true);
    const text = formatDoctor(report);
    expect(text).toContain("✓ sim (all roles): built into agentmux (/opt/agentmux sim-agent)");
    expect(text).toContain("○ gh: not installed (not needed: github.pull_request is false)");
  });

  test("a CLI whose --version hangs is not waited on forever, and not called missing: a loaded machine answers slowly (#27)", async () => {
    fake("tmux", 'echo "tmux 3.3a"');
    fake("claude", "exec /bin/sleep 30");
    fake("gh", "exit 0");
    const started = Date.now();
    const report = await doctor({ timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(10000);
    expect(report.ok).toBe(true);
    expect(formatDoctor(report)).toContain(
      `✓ claude (all roles): ${join(bin, "claude")}: found; its --version did not answer within 0.3 s (a busy machine; the version is not known)`,
    );
  });

  test("a CLI whose --version fails is reported as such", async () => {
    fake("tmux", 'echo "tmux 3.3a"');
    fake("claude", "echo 'claude: broken install' >&2; exit 3");
    fake("gh", "exit 0");
    const report = await doctor({ timeoutMs: 5000 });
    expect(report.ok).toBe(false);
    expect(formatDoctor(report)).toContain(`✗ claude (all roles): ${join(bin, "claude")}: claude: broken install`);
  });

  test("cursor and agy: built from published behaviour, said plainly; gemini: the consumer retirement and agy offered (#27)", async () => {
    fake("tmux", 'echo "tmux 3.3a"');
    fake("gh", "exit 0");
    fake("agy", 'echo "1.2.2"');
    fake("cursor-agent", 'echo "2026.07.20-abc"');
    fake("gemini", 'echo "0.61.0"');
    config.defaults.provider = "agy";
    config.roles.coder = { provider: "cursor", model: null, args: null };
    config.roles.planner = { provider: "gemini", model: null, args: null };
    const text = formatDoctor(await doctor());
    expect(text).toContain(
      "agy support: built from the published behaviour of agy 1.0.10, 1.1.28, 1.2.2, 1.2.7 (other tools' recorded screens and docs); not yet run on this machine",
    );
    expect(text).toContain("cursor support: built from the published behaviour of cursor 2026.06.15, 2026.07.20, 2026.09.02");
    expect(text).toContain("✓ cursor wiring: MCP: the run's endpoint over HTTP via --plugin-dir");
    expect(text).toContain("✓ agy wiring: MCP: the run's endpoint over stdio (agentmux mcp-server) via <worktree>/.agents/mcp_config.json");
    expect(text).toContain("gemini accounts: Google retired Gemini CLI for consumer Google accounts");
    expect(text).toContain("should use Antigravity (provider agy); for such an account install agy and set defaults.provider: agy");
    expect(text).not.toContain("claude support");
    // what the version found takes
    expect(text).toContain("cursor 2026.07.20: started with --trust (this version takes it)");
    expect(text).not.toContain("agy 1.2.2:");
    fake("agy", 'echo "1.1.5"');
    expect(formatDoctor(await doctor())).toContain("agy 1.1.5: agy before 1.1.10 ignores --model in interactive sessions");
  });

  test("qwen with an HTTP(S) proxy in the environment: doctor names the proxy and the stdio wiring (#27)", async () => {
    fake("tmux", 'echo "tmux 3.3a"');
    fake("gh", "exit 0");
    fake("qwen", 'echo "0.15.10"');
    config.defaults.provider = "qwen";
    const report = await doctor({ env: { HTTPS_PROXY: "http://proxy.corp:3128" } });
    expect(formatDoctor(report)).toContain(
      "✓ qwen and your proxy: HTTPS_PROXY=http://proxy.corp:3128 is set: qwen sends even its loopback MCP connection through it (it ignores NO_PROXY), so agentmux wires qwen's MCP over stdio",
    );
    const plain = formatDoctor(await doctor());
    expect(plain).not.toContain("qwen and your proxy");
  });

  test("tmux version parsing", () => {
    expect(parseTmuxVersion("tmux 3.3a")).toEqual([3, 3]);
    expect(parseTmuxVersion("tmux next-3.6")).toEqual([3, 6]);
    expect(parseTmuxVersion("garbage")).toBeNull();
  });

  test("the compiled binary: exit 1 with a missing CLI, 0 with fakes for everything", () => {
    const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: root, XDG_CONFIG_HOME: join(root, "xdg"), TERM: "xterm-256color" };
    const run = () => Bun.spawnSync([BINARY, "doctor"], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
    fake("gh", "exit 0");
    const missing = run();
    expect(missing.stdout.toString()).toContain('✗ claude (all roles): "claude" not found on PATH');
    expect(missing.exitCode).toBe(1);
    fake("claude", 'echo "2.1.197 (Claude Code)"');
    const ok = run();
    expect(ok.stdout.toString()).toMatch(/^✓ tmux: tmux \d+\.\d+/);
    expect(ok.exitCode).toBe(0);
  });
});

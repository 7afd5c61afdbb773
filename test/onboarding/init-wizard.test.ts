import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { loadConfig } from "../../src/config/load.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { isolatedBinary, killTmuxServer, privateSocket, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { BUN, fakeCli, MAIN, sandbox, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
let socket: string;
afterEach(() => {
  killTmuxServer(socket);
  removeDir(sb.root);
});

// a question with a default shows it in brackets; one without (the provider when no CLI is installed) asks for a number or a name
const PROMPT = /\[[^\]\n]*\]: |\(a number or a name\): /;
const GUARDED = 'command -v agentmux >/dev/null && eval "$(agentmux completions bash)"';

/** `agentmux init` (from source) in a pane of a private tmux server: a real terminal. */
class Wizard {
  private tmux: Tmux;
  private answered = 0;
  constructor(socket: string) {
    this.tmux = new Tmux(socket);
  }
  /** `program`: how to run agentmux (from source by default, or the compiled binary) */
  async start(sb: Sandbox, args: string[], program: string[] = [BUN, MAIN]): Promise<void> {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const envs = Object.entries(sb.env)
      .map(([k, v]) => `${k}=${q(v)}`)
      .join(" ");
    const cmd = `cd ${q(sb.repo)} && env ${envs} ${program.map(q).join(" ")} ${args.map(q).join(" ")}; echo "EXIT=$?"; sleep 600`;
    await this.tmux.run(["kill-session", "-t", "w"]).catch(() => undefined);
    this.answered = 0;
    await this.tmux.run(["new-session", "-d", "-s", "w", "-x", "160", "-y", "50", cmd]);
  }
  /** Whole pane history, so prompts that scrolled off still count. */
  history(): Promise<string> {
    return this.tmux.run(["capture-pane", "-p", "-J", "-S", "-", "-t", "w"]);
  }
  private prompts(text: string): string[] {
    return text.split("\n").filter((l) => PROMPT.test(l));
  }
  /** Wait for the next prompt (it must contain `expect`), then type `text` + Enter. */
  async answer(expect: string, text: string): Promise<void> {
    const n = ++this.answered;
    const line = await waitFor(`prompt #${n} "${expect}"`, async () => this.prompts(await this.history())[n - 1]);
    if (!line.includes(expect)) throw new Error(`prompt #${n} was "${line}", expected it to contain "${expect}"`);
    if (text) await this.tmux.run(["send-keys", "-t", "w", "-l", text]);
    await this.tmux.run(["send-keys", "-t", "w", "Enter"]);
  }
  /** Press Enter at every prompt until the program exits; returns the exit code. */
  async enterUntilExit(): Promise<number> {
    for (;;) {
      const n = this.answered + 1;
      const found = await waitFor(`prompt #${n} or exit`, async () => {
        const h = await this.history();
        const exit = /EXIT=(\d+)/.exec(h);
        if (exit) return { exit: Number(exit[1]) };
        return this.prompts(h)[n - 1] ? { exit: null } : undefined;
      });
      if (found.exit !== null) return found.exit;
      await this.answer("]", "");
    }
  }
  exitCode(): Promise<number> {
    return waitFor(
      "exit",
      async () => {
        const m = /EXIT=(\d+)/.exec(await this.history());
        return m ? { code: Number(m[1]) } : undefined;
      },
      { timeoutMs: 15000 },
    ).then((r) => r.code);
  }
}

const ROLES_BEFORE_CODER = ["product-manager", "architect", "planner", "designer"];
const ROLES_AFTER_CODER = ["reviewer_logic", "reviewer_quality", "reviewer_expert", "code-researcher", "web-researcher"];

test("init in a terminal: answers become a minimal config; files offered; a second run with Enter everywhere writes nothing", async () => {
  sb = await sandbox();
  socket = privateSocket();
  fakeCli(sb, "claude", "2.0.1 (Claude Code)");
  fakeCli(sb, "codex", "codex-cli 0.42.0");
  Bun.spawnSync(["git", "remote", "add", "origin", "https://github.com/acme/app.git"], { cwd: sb.repo }); // pull requests are possible
  const w = new Wizard(socket);
  await w.start(sb, ["init"]);
  await w.answer("choice [claude]", "codex");
  await w.answer("different provider or model for some roles? [y/N]", "y");
  for (const role of ROLES_BEFORE_CODER) {
    await w.answer("choice [default]", "");
    await w.answer(`${role} — model`, "");
  }
  await w.answer("choice [default]", "claude");
  await w.answer("coder — model", "opus");
  for (const role of ROLES_AFTER_CODER) {
    await w.answer("choice [default]", "");
    await w.answer(`${role} — model`, "");
  }
  await w.answer("base branch (Enter = the repository's default, now main) [main]", "");
  await w.answer("open pull requests as drafts? [Y/n]", "n");
  await w.answer("branch prefix [feature/]", "feat/");
  await w.answer("Create AGENTS.md", "y");
  await w.answer("Create CLAUDE.md", "n");
  await w.answer("Prompt extension stubs", "coder, reviewer");
  await w.answer(`Add shell completions to ${join(sb.home, ".bashrc")} (the line: ${GUARDED})? [y/N]`, "y");
  expect(await w.exitCode()).toBe(0);

  const read = (rel: string) => readFileSync(join(sb.repo, rel), "utf8");
  expect(parse(read(".agentmux/config.yaml"))).toEqual({
    version: 2,
    defaults: { provider: "codex" },
    roles: { coder: { provider: "claude", model: "opus" } },
    github: { draft: false, branch_prefix: "feat/" },
  });
  const { config } = loadConfig({ projectDir: sb.repo, env: sb.env });
  expect(config.github.base_branch).toBeNull();
  expect(existsSync(join(sb.repo, "AGENTS.md"))).toBe(true);
  expect(existsSync(join(sb.repo, "CLAUDE.md"))).toBe(false);
  expect(read(".agentmux/prompts/agents/coder.md")).toContain("coder prompt");
  expect(existsSync(join(sb.repo, ".agentmux/prompts/agents/reviewer.md"))).toBe(true);
  const rc = readFileSync(join(sb.home, ".bashrc"), "utf8");
  expect(rc.split("\n").filter((l) => l === GUARDED)).toHaveLength(1);

  const files = [".agentmux/config.yaml", ".gitignore", "AGENTS.md", ".agentmux/config.schema.json"];
  const before = files.map(read);
  await w.start(sb, ["init"]);
  expect(await w.enterUntilExit()).toBe(0);
  const history = await w.history();
  expect(history).toContain("choice [codex]");
  expect(history).toContain("coder — model (- = the CLI's default) [opus]");
  expect(history).not.toContain("Add shell completions");
  expect(history).toContain("unchanged  .agentmux/config.yaml");
  expect(files.map(read)).toEqual(before);
  expect(readFileSync(join(sb.home, ".bashrc"), "utf8")).toBe(rc);
}, 60000);

test("Enter at every question leaves the shell's startup file alone (completions default to No)", async () => {
  sb = await sandbox();
  socket = privateSocket();
  fakeCli(sb, "claude", "1.0.0");
  const w = new Wizard(socket);
  await w.start(sb, ["init"]);
  expect(await w.enterUntilExit()).toBe(0);
  expect(await w.history()).toContain(`Add shell completions to ${join(sb.home, ".bashrc")} (the line: ${GUARDED})? [y/N]`);
  expect(existsSync(join(sb.home, ".bashrc"))).toBe(false);
}, 60000);

test("an npm project: the wizard offers its checks (Enter adds them) and does not ask again once some are configured", async () => {
  sb = await sandbox();
  socket = privateSocket();
  fakeCli(sb, "claude", "1.0.0");
  fakeCli(sb, "npm", "10.0.0");
  writeFileSync(join(sb.repo, "package.json"), JSON.stringify({ name: "app", scripts: { test: "jest", lint: "eslint ." } }));
  const w = new Wizard(socket);
  await w.start(sb, ["init"]);
  expect(await w.enterUntilExit()).toBe(0);
  expect(await w.history()).toContain("Checks agentmux runs itself after the coders, from this npm project (test: npm test; lint: npm run lint)? [Y/n]");
  const checks = () => parse(readFileSync(join(sb.repo, ".agentmux/config.yaml"), "utf8")).checks;
  expect(checks()).toEqual({ test: { command: "npm test" }, lint: { command: "npm run lint" } });
  await w.start(sb, ["init"]);
  expect(await w.enterUntilExit()).toBe(0);
  expect(await w.history()).not.toContain("Checks agentmux runs itself");
  expect(checks()).toEqual({ test: { command: "npm test" }, lint: { command: "npm run lint" } });
}, 60000);

test("Ctrl-C in the wizard exits 130 and writes nothing", async () => {
  sb = await sandbox();
  socket = privateSocket();
  fakeCli(sb, "gemini", "0.9.1");
  const w = new Wizard(socket);
  await w.start(sb, ["init"]);
  // #31: Enter takes the CLI that is installed, not claude, which is not
  await waitFor("first prompt", async () => (await w.history()).includes("choice [gemini]"));
  await new Tmux(socket).run(["send-keys", "-t", "w", "C-c"]);
  expect(await w.exitCode()).toBe(130);
  expect(await w.history()).toContain("canceled; nothing was written");
  for (const f of [".agentmux", ".gitignore", "GEMINI.md", "CLAUDE.md"]) expect(existsSync(join(sb.repo, f))).toBe(false);
}, 30000);

test("#31: no agent CLI, no gh and no origin (compiled binary): the provider question has no default — Enter asks again — and says how to install one; no pull-request question", async () => {
  sb = await sandbox();
  socket = privateSocket();
  const w = new Wizard(socket);
  await w.start(sb, ["init"], [isolatedBinary()]);
  // Enter alone picks nothing (it used to pick claude, which is not installed)
  await w.answer("choice (a number or a name): ", "");
  await waitFor("the refusal", async () => (await w.history()).includes("there is no default here: type the number or the name of one"));
  await w.answer("choice (a number or a name): ", "sim");
  expect(await w.enterUntilExit()).toBe(0);
  const h = await w.history();
  expect(h).toContain("No agent CLI was found on PATH, so there is no default: choose the one you will install, or sim to try agentmux");
  expect(h).toContain("npm install -g @openai/codex");
  expect(h).toMatch(/sim +built-in simulated agent/);
  expect(parse(readFileSync(join(sb.repo, ".agentmux/config.yaml"), "utf8")).defaults).toEqual({ provider: "sim" });
  expect(h).toContain("Branches (no gh on PATH and no origin remote: no pull request questions");
  expect(h).not.toContain("open pull requests as drafts?");
  expect(h).not.toContain("GitHub pull requests:");
}, 60000);

import { beforeAll, describe, expect, test } from "bun:test";
import { privateMcpDir } from "../../src/providers/mcp.ts";
import { loadConfig } from "../../src/config/load.ts";
import { buildLaunch } from "../../src/providers/launch.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import { McpClientConfig } from "../../src/schema/mcp-client-config.ts";
import { ROLE_TOOLS, ROLES, type Role } from "../../src/schema/catalog.ts";
import type { Config } from "../../src/schema/config.ts";

const S = "/work/s";
const W = "/work/wt";
const SELF = ["/opt/agentmux"];
const PRIVATE = privateMcpDir(S, "/nonexistent-home");
let base: Config;

beforeAll(() => {
  base = loadConfig({ projectDir: "/nonexistent-project", env: { HOME: "/nonexistent-home" } }).config;
});

const URL = "http://127.0.0.1:41234/mcp";
const TOKEN = "5e".repeat(32);
const BEARER = { Authorization: `Bearer ${TOKEN}` };

/** The launch context of agent `agentKey` in the work dir, with the MCP endpoint. */
const ctxFor = (agentKey: string) => ({
  sessionDir: S,
  projectDir: "/work/p",
  workDir: W,
  agentKey,
  selfCommand: SELF,
  home: "/nonexistent-home",
  mcp: { url: URL, token: TOKEN },
});

function launch(provider: string, role: Role, extra: { batchPrompt?: string; agentKey?: string; transport?: "http" | "stdio" } = {}) {
  const config = structuredClone(base);
  config.defaults.provider = provider;
  if (extra.transport) config.providers[provider]!.mcp_transport = extra.transport;
  return buildLaunch(resolveRole(config, role), { ...ctxFor(extra.agentKey ?? role), batchPrompt: extra.batchPrompt });
}

/** The stdio fallback's server: `agentmux mcp-server`, told the endpoint and its token's file (not the token) in its env. */
const tokenFile = (agent: string) => `${PRIVATE}/${agent}.token`;
const bridgeEnv = (agent: string) => ({ AGENTMUX_MCP_URL: URL, AGENTMUX_MCP_TOKEN_FILE: tokenFile(agent) });
/** The launch writes the token alone to that file, 0600. */
const tokenFileOf = (l: { files: { path: string; content: string; secret?: boolean }[] }, agent: string) => l.files.find((f) => f.path === tokenFile(agent));
// read-only roles run the git commands their prompts name in every common spelling (#12.12)
const READ_ONLY =
  "Read,Glob,Grep,Bash(ls:*),Bash(cat:*),Bash(find:*),Bash(grep:*),Bash(git log:*),Bash(git diff:*),Bash(git status:*),Bash(git show:*),Bash(git ls-files:*),Bash(git rev-parse:*),Bash(git branch:*),Bash(git -C * log:*),Bash(git -C * diff:*),Bash(git -C * status:*),Bash(git -C * show:*),Bash(git -C * ls-files:*),Bash(git -C * rev-parse:*),Bash(git -C * branch:*),Bash(head:*),Bash(tail:*),Bash(wc:*),Bash(pwd)";

describe("buildLaunch, planner on each built-in provider (explicit expectations)", () => {
  test("claude", () => {
    const l = launch("claude", "planner");
    expect(l.argv).toEqual([
      "claude",
      "--permission-mode",
      "acceptEdits",
      // its read-only git in its own folder spelled out: claude 2.1.197 matched no rule with a '*' inside (#27)
      "--allowedTools",
      `${READ_ONLY},mcp__agentmux__research_dispatch_code,mcp__agentmux__research_dispatch_web,mcp__agentmux__submit_plan,Bash(git -C ${W} status:*),Bash(git -C ${W} diff:*),Bash(git -C ${W} log:*),Bash(git -C ${W} show:*)`,
      "--add-dir",
      S, // the session folder is outside the work dir here, as in a worktree run
      "--mcp-config",
      `${PRIVATE}/planner.claude.json`,
    ]);
    expect(l.env).toEqual({ DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1" });
    expect(l.cwd).toBe(W);
    expect(l.files).toHaveLength(1);
    expect(l.files[0]!.path).toBe(`${PRIVATE}/planner.claude.json`);
    expect(l.files[0]!.secret).toBe(true);
    expect(JSON.parse(l.files[0]!.content)).toEqual({ mcpServers: { agentmux: { type: "http", url: URL, headers: BEARER, alwaysLoad: true } } });
  });

  test("codex", () => {
    const l = launch("codex", "planner");
    expect(l.argv).toEqual([
      "codex",
      "-c",
      "check_for_update_on_startup=false",
      "--no-daemon",
      "-a",
      "never",
      "-s",
      "workspace-write",
      "--add-dir",
      S,
      "-c",
      `mcp_servers.agentmux.url="${URL}"`,
      "-c",
      'mcp_servers.agentmux.bearer_token_env_var="AGENTMUX_MCP_TOKEN"',
      "-c",
      'mcp_servers.agentmux.default_tools_approval_mode="approve"',
      "-c",
      `projects={"${W}"={trust_level="trusted"}}`,
    ]);
    // the token reaches codex's environment (the pane's env file, 0600), never argv
    expect(l.env).toEqual({ AGENTMUX_MCP_TOKEN: TOKEN });
    expect(l.files).toEqual([]);
  });

  test("gemini", () => {
    const l = launch("gemini", "planner");
    // a private home (GEMINI_CLI_HOME): gemini loads user settings from a user-owned file, its
    // system layers only from root-owned ones
    const home = `${PRIVATE}/planner.gemini-home`;
    expect(l.argv).toEqual(["gemini", "--approval-mode", "yolo", "--include-directories", S]);
    // GEMINI_CLI_INTEGRATION_TEST: under CI=true (any CI job) gemini 0.61 started headless and exited 42
    expect(l.env).toEqual({ GEMINI_CLI_HOME: home, GEMINI_CLI_TRUST_WORKSPACE: "true", GEMINI_CLI_INTEGRATION_TEST: "true" });
    expect(l.files.map((f) => f.path)).toEqual([`${home}/.gemini/settings.json`]);
    expect(l.files[0]!.secret).toBe(true);
    expect(JSON.parse(l.files[0]!.content)).toEqual({
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      mcpServers: { agentmux: { httpUrl: URL, headers: BEARER, trust: true } },
    });
    // no ~/.gemini yet: its chats stay with the session, for --resume
    expect(l.links).toEqual([{ path: `${home}/.gemini/tmp`, target: `${S}/.runtime/gemini/tmp` }]);
  });

  test("qwen", () => {
    const l = launch("qwen", "planner");
    const file = `${PRIVATE}/planner.qwen-settings.json`;
    expect(l.argv).toEqual(["qwen", "--approval-mode", "yolo", "--include-directories", S]);
    expect(l.env).toEqual({ QWEN_CODE_SYSTEM_DEFAULTS_PATH: file });
    expect(JSON.parse(l.files[0]!.content).mcpServers.agentmux).toEqual({ httpUrl: URL, headers: BEARER, trust: true });
    expect(JSON.parse(l.files[0]!.content).general.enableAutoUpdate).toBe(false);
    // its MCP tools offered directly: without tool_search, qwen 0.15 reveals every deferred tool (#27)
    expect(JSON.parse(l.files[0]!.content).permissions).toEqual({ deny: ["tool_search"] });
    // no follow-up suggestion at a turn's end: while 0.24.4 asked the model for one, a reminder's paste did not show (#27)
    expect(JSON.parse(l.files[0]!.content).ui).toEqual({ enableFollowupSuggestions: false });
  });

  test("qwen with an HTTP(S) proxy in its environment: MCP over the stdio bridge, which keeps loopback off the proxy (#27)", () => {
    const config = structuredClone(base);
    config.defaults.provider = "qwen";
    const ctx = ctxFor("planner");
    for (const env of [{ HTTPS_PROXY: "http://proxy.corp:3128" }, { http_proxy: "http://proxy.corp:3128" }]) {
      const l = buildLaunch(resolveRole(config, "planner"), { ...ctx, env });
      expect(JSON.parse(l.files[0]!.content).mcpServers.agentmux).toEqual({
        command: "/opt/agentmux",
        args: ["mcp-server"],
        env: bridgeEnv("planner"),
        trust: true,
      });
      // the token stays in the 0600 file, never in argv
      expect(l.argv.join(" ")).not.toContain(TOKEN);
    }
    // a proxy set in the provider's own env counts too
    config.providers.qwen!.env = { HTTPS_PROXY: "http://proxy.corp:3128" };
    expect(JSON.parse(buildLaunch(resolveRole(config, "planner"), ctx).files[0]!.content).mcpServers.agentmux.command).toBe("/opt/agentmux");
  });

  test("opencode", () => {
    const l = launch("opencode", "planner");
    expect(l.argv).toEqual(["opencode"]);
    // the header with the token is in a 0600 file of the private folder that OPENCODE_CONFIG names, not in its environment (#31)
    const file = `${PRIVATE}/planner.opencode.json`;
    expect(l.env).toEqual({ OPENCODE_CONFIG: file });
    expect(l.files.map((f) => [f.path, f.secret])).toEqual([[file, true]]);
    expect(JSON.parse(l.files[0]!.content)).toEqual({
      autoupdate: false,
      // opencode's own 5 s MCP limit failed the server for good on a loaded machine (#27.8)
      mcp: { agentmux: { type: "remote", url: URL, headers: BEARER, enabled: true, timeout: 150_000 } },
    });
  });

  test("opencode when the user names a custom config in OPENCODE_CONFIG: that one stays, agentmux's goes inline (the token then in its environment)", () => {
    const config = structuredClone(base);
    config.defaults.provider = "opencode";
    const l = buildLaunch(resolveRole(config, "planner"), { ...ctxFor("planner"), env: { OPENCODE_CONFIG: "/home/u/my-opencode.json" } });
    expect(Object.keys(l.env)).toEqual(["OPENCODE_CONFIG_CONTENT"]);
    expect(JSON.parse(l.env.OPENCODE_CONFIG_CONTENT!).mcp.agentmux.headers).toEqual(BEARER);
    expect(l.files).toEqual([]);
  });

  test("copilot", () => {
    const l = launch("copilot", "planner");
    const file = `${PRIVATE}/planner.copilot.json`;
    expect(l.argv).toEqual(["copilot", "--allow-all", "--additional-mcp-config", `@${file}`]);
    expect(l.env).toEqual({});
    expect(JSON.parse(l.files[0]!.content)).toEqual({ mcpServers: { agentmux: { type: "http", url: URL, headers: BEARER, tools: ["*"] } } });
  });

  test("sim", () => {
    const config = structuredClone(base);
    config.defaults.provider = "sim";
    config.sim = { think_ms: 250, scenario: ["review_fail_once", "crash=coder"] };
    const l = buildLaunch(resolveRole(config, "planner"), {
      sessionDir: S,
      projectDir: "/work/p",
      workDir: W,
      agentKey: "planner",
      selfCommand: ["/usr/bin/bun", "/src/main.ts"],
      mcp: { url: URL, token: TOKEN },
    });
    const file = `${privateMcpDir(S)}/planner.sim.json`; // no home given: the user's
    expect(l.argv).toEqual(["/usr/bin/bun", "/src/main.ts", "sim-agent", "--mcp-config", file]);
    // the sim's behaviour (not its identity: that is the token) comes from its env
    expect(l.env).toEqual({
      AGENTMUX_SESSION_DIR: S,
      AGENTMUX_PROJECT_DIR: W,
      AGENTMUX_ROLE: "planner",
      AGENTMUX_AGENT: "planner",
      AGENTMUX_SIM_SCENARIO: "review_fail_once,crash=coder",
      AGENTMUX_SIM_THINK_MS: "250",
    });
    const mcp = McpClientConfig.parse(JSON.parse(l.files[0]!.content));
    expect(mcp.mcpServers.agentmux).toEqual({ type: "http", url: URL, headers: BEARER });
  });
});

describe("buildLaunch, every built-in provider × every role", () => {
  const providers = ["claude", "codex", "gemini", "opencode", "copilot", "qwen", "sim"];
  for (const provider of providers) {
    test(provider, () => {
      for (const role of ROLES) {
        const key = `${role}-2`;
        const l = launch(provider, role, { agentKey: key });
        const p = base.providers[provider]!;
        const roleArgs = [...p.default_role_args, ...(p.role_args[role] ?? [])];
        expect(l.cwd).toBe(W);
        // role args appear in order, right after the command and provider args
        const head = provider === "sim" ? [...SELF, "sim-agent"] : [p.command, ...p.args];
        expect(l.argv.slice(0, head.length)).toEqual(head);
        const after = l.argv.slice(head.length, head.length + roleArgs.length);
        if (provider === "claude") {
          expect(after.slice(0, 3)).toEqual(roleArgs.slice(0, 3));
          const allowed = after[3]!.split(",");
          for (const t of ROLE_TOOLS[role]) expect(allowed).toContain(`mcp__agentmux__${t}`);
          expect(allowed.filter((a) => a.startsWith("mcp__agentmux__"))).toHaveLength(ROLE_TOOLS[role].length);
        } else {
          expect(after).toEqual(roleArgs);
        }
        // the agent's token reaches its CLI in a 0600 file or its env (a 0600 file the pane sources) — never argv
        const secret = JSON.stringify(l.files.filter((f) => f.secret).map((f) => f.content)) + JSON.stringify(l.env);
        expect(secret).toContain(TOKEN);
        expect(l.argv.join(" ") + JSON.stringify(l.files.filter((f) => !f.secret))).not.toContain(TOKEN);
        // every file holding a token is in the run's private folder, never in the session folder
        const dir = PRIVATE;
        for (const f of l.files) expect(f.path.startsWith(`${dir}/${key}.`)).toBe(true);
        expect(l.argv).not.toContain("--model");
      }
    });
  }
});

describe("models, role args, batch", () => {
  test("model: role > defaults (same provider) > provider default; null → no flag", () => {
    const config = structuredClone(base);
    config.defaults.model = "opus";
    config.roles.coder = { provider: "codex", model: null, args: null };
    config.roles.architect = { provider: null, model: "haiku", args: null };
    config.providers.codex!.default_model = "gpt-5";
    config.providers.codex!.model_args = { "gpt-5": ["-c", "model_reasoning_effort=high"] };
    const ctx = { sessionDir: S, projectDir: W, workDir: W, agentKey: "a", selfCommand: SELF };
    expect(buildLaunch(resolveRole(config, "planner"), ctx).argv.slice(0, 3)).toEqual(["claude", "--model", "opus"]);
    expect(buildLaunch(resolveRole(config, "architect"), ctx).argv.slice(0, 3)).toEqual(["claude", "--model", "haiku"]);
    const coder = buildLaunch(resolveRole(config, "coder"), ctx).argv;
    expect(coder.slice(0, 5)).toEqual(["codex", "-c", "check_for_update_on_startup=false", "--model", "gpt-5"]);
    expect(coder.slice(5, 12)).toEqual(["--no-daemon", "-a", "never", "-s", "workspace-write", "-c", "model_reasoning_effort=high"]);
    config.providers.codex!.default_model = null;
    expect(buildLaunch(resolveRole(config, "coder"), ctx).argv).not.toContain("--model");
  });

  test("roles.<r>.args replace the provider's role args; claude still gets its MCP tools", () => {
    const config = structuredClone(base);
    config.roles.coder = { provider: null, model: null, args: ["--dangerously-skip-permissions"] };
    const l = buildLaunch(resolveRole(config, "coder"), { sessionDir: S, projectDir: W, workDir: W, agentKey: "coder-1", selfCommand: SELF });
    expect(l.argv.slice(0, 4)).toEqual(["claude", "--dangerously-skip-permissions", "--allowedTools", "mcp__agentmux__submit_done"]);
    expect(l.argv).not.toContain("acceptEdits");
  });

  test("batch modes: flag (sim, claude), stdin (codex), positional (opencode)", () => {
    const prompt = `${S}/03_research/code-auth/prompt.md`;
    const sim = launch("sim", "code-researcher", { batchPrompt: prompt });
    expect(sim.argv.slice(0, 4)).toEqual([...SELF, "sim-agent", "--prompt", prompt]);
    expect(sim.stdinFile).toBeUndefined();
    expect(launch("claude", "web-researcher", { batchPrompt: prompt }).argv.slice(0, 3)).toEqual(["claude", "-p", prompt]);
    const codex = launch("codex", "code-researcher", { batchPrompt: prompt });
    expect(codex.argv.slice(0, 6)).toEqual(["codex", "-c", "check_for_update_on_startup=false", "exec", "-s", "workspace-write"]);
    expect(codex.argv).not.toContain(prompt);
    expect(codex.stdinFile).toBe(prompt);
    const oc = launch("opencode", "code-researcher", { batchPrompt: prompt });
    expect(oc.argv).toEqual(["opencode", "run", prompt]);
  });
});

test("the session folder is passed as an extra writable folder only when it is outside the work dir", () => {
  const inside = buildLaunch(resolveRole(base, "coder"), {
    sessionDir: `${W}/.agentmux/.sessions/x`,
    projectDir: W,
    workDir: W,
    agentKey: "coder",
    selfCommand: SELF,
    home: "/nonexistent-home",
  });
  expect(inside.argv).not.toContain("--add-dir");
  const outside = buildLaunch(resolveRole(base, "coder"), {
    sessionDir: "/repo/.agentmux/.sessions/x",
    projectDir: "/repo",
    workDir: "/repo-worktrees/x",
    agentKey: "coder",
    selfCommand: SELF,
    home: "/nonexistent-home",
  });
  expect(outside.argv.slice(outside.argv.indexOf("--add-dir"), outside.argv.indexOf("--add-dir") + 2)).toEqual(["--add-dir", "/repo/.agentmux/.sessions/x"]);
});

describe("mcp_transport: stdio (the fallback for a CLI that cannot use HTTP)", () => {
  test("claude, gemini, copilot name `agentmux mcp-server` with the endpoint and token in its env (0600 files)", () => {
    const claude = launch("claude", "coder", { transport: "stdio" });
    expect(JSON.parse(claude.files[0]!.content).mcpServers.agentmux).toEqual({
      type: "stdio",
      command: "/opt/agentmux",
      args: ["mcp-server"],
      env: bridgeEnv("coder"),
      alwaysLoad: true,
    });
    const gemini = launch("gemini", "coder", { transport: "stdio" });
    expect(JSON.parse(gemini.files[0]!.content).mcpServers.agentmux).toEqual({
      command: "/opt/agentmux",
      args: ["mcp-server"],
      env: bridgeEnv("coder"),
      trust: true,
    });
    const copilot = launch("copilot", "coder", { transport: "stdio" });
    expect(JSON.parse(copilot.files[0]!.content).mcpServers.agentmux).toEqual({
      type: "local",
      command: "/opt/agentmux",
      args: ["mcp-server"],
      env: bridgeEnv("coder"),
      tools: ["*"],
    });
    for (const l of [claude, gemini, copilot]) {
      expect(l.files.every((f) => f.secret)).toBe(true);
      expect(tokenFileOf(l, "coder")).toEqual({ path: tokenFile("coder"), content: TOKEN + "\n", secret: true });
      expect(JSON.stringify(l.env)).not.toContain(TOKEN);
    }
  });

  test("codex forwards the endpoint and the token's file (not the token) from its own environment with env_vars (#31)", () => {
    const l = launch("codex", "coder", { transport: "stdio" });
    expect(l.argv).toContain('mcp_servers.agentmux.env_vars=["AGENTMUX_MCP_URL","AGENTMUX_MCP_TOKEN_FILE"]');
    expect(l.argv).toContain('mcp_servers.agentmux.command="/opt/agentmux"');
    expect(l.argv.join(" ")).not.toContain(TOKEN);
    expect(l.env).toEqual(bridgeEnv("coder"));
    expect(tokenFileOf(l, "coder")?.content).toBe(TOKEN + "\n");
  });

  test("opencode: a local server in OPENCODE_CONFIG_CONTENT, which names the token's file, not the token (#31)", () => {
    const l = launch("opencode", "coder", { transport: "stdio" });
    expect(JSON.parse(l.env.OPENCODE_CONFIG_CONTENT!).mcp.agentmux).toEqual({
      type: "local",
      command: ["/opt/agentmux", "mcp-server"],
      environment: bridgeEnv("coder"),
      enabled: true,
      timeout: 150_000,
    });
    expect(JSON.stringify(l.env)).not.toContain(TOKEN);
    expect(tokenFileOf(l, "coder")?.secret).toBe(true);
  });
});

test("claude reviewer in a folder with a space: its read-only git in its own folder is allowed unquoted and quoted (#27)", () => {
  const config = structuredClone(base);
  const l = buildLaunch(resolveRole(config, "reviewer_logic"), { ...ctxFor("reviewer_logic"), workDir: "/work/my repo" });
  const rules = l.argv[l.argv.indexOf("--allowedTools") + 1]!.split(",");
  for (const cmd of ["status", "diff", "log", "show"]) {
    expect(rules).toContain(`Bash(git -C /work/my repo ${cmd}:*)`);
    expect(rules).toContain(`Bash(git -C "/work/my repo" ${cmd}:*)`);
    expect(rules).toContain(`Bash(git -C '/work/my repo' ${cmd}:*)`);
  }
  // a role without read-only git in its list gets none added (the coder may run any command already)
  const coder = buildLaunch(resolveRole(config, "coder"), ctxFor("coder"));
  expect(coder.argv.join(" ")).not.toContain("git -C /work/wt");
});

test("qwen and copilot continue their own conversations: the id agentmux picks starts one, and the same id resumes it (#27)", () => {
  const ctx = ctxFor("coder");
  const id = "6f1c2b3a-0000-4000-8000-00000000c0de";
  for (const [cli, start, resume] of [
    ["qwen", ["--session-id", id], ["--resume", id]],
    ["copilot", ["--session-id", id], [`--resume=${id}`]],
  ] as const) {
    const config = structuredClone(base);
    config.defaults.provider = cli;
    const fresh = buildLaunch(resolveRole(config, "coder"), { ...ctx, conversation: { id, resume: false } });
    expect(fresh.argv.slice(0, 1 + start.length)).toEqual([cli, ...start]);
    const again = buildLaunch(resolveRole(config, "coder"), { ...ctx, conversation: { id, resume: true } });
    expect(again.argv.slice(0, 1 + resume.length)).toEqual([cli, ...resume]);
  }
});

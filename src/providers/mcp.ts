import { homedir } from "node:os";
import { basename, join } from "node:path";
import { F, agentFileName } from "../session/paths.ts";
import type { ResolvedAgent } from "./resolve.ts";
import { geminiHome, userGeminiHome } from "./gemini-home.ts";

export type LaunchContext = {
  sessionDir: string;
  projectDir: string;
  /** the agent's working directory (the project, or its worktree) */
  workDir: string;
  /** unique agent id within the session, e.g. "coder-1", "reviewer_logic" */
  agentKey: string;
  /** how to run this agentmux binary, e.g. ["/usr/local/bin/agentmux"] or [bun, "src/main.ts"] */
  selfCommand: string[];
  /** the run's MCP endpoint and this agent's secret token (absent: placeholders, e.g. for doctor) */
  mcp?: { url: string; token: string };
  /** researchers: the prompt file, passed per the provider's batch mode */
  batchPrompt?: string;
  /** home folder for pre-trust files (default: the user's home) */
  home?: string;
  /** the CLI conversation to start with this id, or to continue (provider.conversation) */
  conversation?: { id: string; resume: boolean };
};

/** A file a launch writes; `secret` files (they hold a token) are written 0600. */
export type LaunchFile = { path: string; content: string; secret?: boolean };

/**
 * The pieces of a launch one concern (MCP wiring, pre-trust) contributes; `links`: symlinks to
 * make. `env` reaches the CLI through a 0600 file its pane sources (effects/tmux env-file.ts),
 * never an argv, so it may hold the agent's token.
 */
export type LaunchPart = { argv: string[]; env: Record<string, string>; files: LaunchFile[]; links?: { path: string; target: string }[] };

/** The env names under which a CLI finds the endpoint and its token (codex, the stdio bridge). */
export const MCP_URL_ENV = "AGENTMUX_MCP_URL";
export const MCP_TOKEN_ENV = "AGENTMUX_MCP_TOKEN";

export type McpServerSpec = { command: string; args: string[]; env: Record<string, string> };

/** The stdio fallback: `<self> mcp-server`, told the endpoint and the token in its env. */
export function bridgeSpec(ctx: LaunchContext): McpServerSpec {
  const { url, token } = endpointOf(ctx);
  return { command: ctx.selfCommand[0]!, args: [...ctx.selfCommand.slice(1), "mcp-server"], env: { [MCP_URL_ENV]: url, [MCP_TOKEN_ENV]: token } };
}

const endpointOf = (ctx: LaunchContext) => ctx.mcp ?? { url: "http://127.0.0.1:<port>/mcp", token: "<token>" };

/** Where per-agent MCP config files live: inside the session, never in a user's config. */
export function mcpFile(ctx: LaunchContext, kind: string): string {
  const safe = agentFileName(ctx.agentKey);
  return join(ctx.sessionDir, F.mcpReadyDir, `${safe}.${kind}.json`);
}

/**
 * gemini and qwen ignore a settings file when any folder above it is writable by group or
 * others (e.g. a project under /tmp), so theirs lives in a private per-user folder instead:
 * `~/.cache/agentmux/mcp/<session id>/` (created 0700, removed when the run ends).
 */
export function privateMcpDir(sessionDir: string, home: string = homedir()): string {
  return join(home, ".cache", "agentmux", "mcp", basename(sessionDir));
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
/** A TOML value for codex `-c key=value`: JSON strings and arrays of strings are valid TOML. */
const toml = (v: string | string[]) => (Array.isArray(v) ? `[${v.map((s) => JSON.stringify(s)).join(",")}]` : JSON.stringify(v));

/**
 * Wire the run's MCP endpoint into one CLI launch, per invocation wherever the CLI allows.
 * Over HTTP (the default) the CLI connects to the endpoint itself with the agent's token as a
 * bearer token: claude/sim `--mcp-config FILE` (type http + headers); codex `-c
 * mcp_servers.agentmux.url=…` + `bearer_token_env_var` (the token in its environment); gemini
 * the settings file of a private home (GEMINI_CLI_HOME, gemini-home.ts), qwen one named by
 * QWEN_CODE_SYSTEM_DEFAULTS_PATH (`httpUrl` + headers);
 * opencode the OPENCODE_CONFIG_CONTENT overlay (type remote); copilot `--additional-mcp-config
 * @FILE` (type http). With `mcp_transport: stdio` the same places name `agentmux mcp-server`
 * instead, with the endpoint and token in its env. Files holding a token are 0600; tokens are
 * never in argv.
 */
export function mcpWiring(agent: ResolvedAgent, ctx: LaunchContext): LaunchPart {
  const { url, token } = endpointOf(ctx);
  const http = agent.provider.mcp_transport === "http";
  const bridge = bridgeSpec(ctx);
  const headers = { Authorization: `Bearer ${token}` };
  const part: LaunchPart = { argv: [], env: {}, files: [] };
  switch (agent.provider.mcp) {
    case "claude":
    case "sim": {
      const path = mcpFile(ctx, agent.provider.mcp);
      // Claude Code 2.1.3xx defers MCP tools behind ToolSearch (the model sees only their names);
      // alwaysLoad keeps the completion tools in the prompt with their schemas, and makes claude
      // connect the server before its first turn (measured by test/real-cli).
      const always = agent.provider.mcp === "claude" ? { alwaysLoad: true } : {};
      const server = http ? { type: "http", url, headers, ...always } : { type: "stdio", ...bridge, ...always };
      part.files.push({ path, content: json({ mcpServers: { agentmux: server } }), secret: true });
      part.argv.push("--mcp-config", path);
      if (agent.provider.mcp === "sim") {
        Object.assign(part.env, {
          AGENTMUX_SESSION_DIR: ctx.sessionDir,
          AGENTMUX_PROJECT_DIR: ctx.workDir,
          AGENTMUX_ROLE: agent.role,
          AGENTMUX_AGENT: ctx.agentKey,
          AGENTMUX_SIM_SCENARIO: agent.sim.scenario.join(","),
          AGENTMUX_SIM_THINK_MS: String(agent.sim.think_ms),
        });
      }
      break;
    }
    case "codex":
      if (http) {
        part.argv.push("-c", `mcp_servers.agentmux.url=${toml(url)}`, "-c", `mcp_servers.agentmux.bearer_token_env_var=${toml(MCP_TOKEN_ENV)}`);
        part.env[MCP_TOKEN_ENV] = token;
      } else {
        // env_vars: codex passes these from its own environment to the server (values stay out of argv)
        part.argv.push("-c", `mcp_servers.agentmux.command=${toml(bridge.command)}`, "-c", `mcp_servers.agentmux.args=${toml(bridge.args)}`, "-c", `mcp_servers.agentmux.env_vars=${toml([MCP_URL_ENV, MCP_TOKEN_ENV])}`);
        Object.assign(part.env, bridge.env);
      }
      part.argv.push("-c", `mcp_servers.agentmux.default_tools_approval_mode="approve"`);
      break;
    case "gemini":
    case "qwen": {
      const safe = agentFileName(ctx.agentKey);
      const server = http ? { httpUrl: url, headers, trust: true } : { ...bridge, trust: true };
      const settings = { general: { enableAutoUpdate: false, enableAutoUpdateNotification: false }, mcpServers: { agentmux: server } };
      if (agent.provider.mcp === "gemini") {
        // see gemini-home.ts: the system layers need root-owned files, so a private home instead
        const home = geminiHome({ dir: join(privateMcpDir(ctx.sessionDir, ctx.home), `${safe}.gemini-home`), userHome: userGeminiHome(agent.provider.env, ctx.home), sessionDir: ctx.sessionDir, settings });
        Object.assign(part.env, home.env);
        part.files.push(...home.files.map((f) => ({ ...f, secret: true })));
        part.links = home.links;
        break;
      }
      // qwen 0.15 loads QWEN_CODE_SYSTEM_DEFAULTS_PATH without gemini's ownership check (read in its bundle)
      const path = join(privateMcpDir(ctx.sessionDir, ctx.home), `${safe}.qwen-settings.json`);
      part.files.push({ path, content: json(settings), secret: true });
      part.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH = path;
      break;
    }
    case "opencode": {
      const server = http ? { type: "remote", url, headers, enabled: true } : { type: "local", command: [bridge.command, ...bridge.args], environment: bridge.env, enabled: true };
      part.env.OPENCODE_CONFIG_CONTENT = JSON.stringify({ autoupdate: false, mcp: { agentmux: server } });
      break;
    }
    case "copilot": {
      const path = mcpFile(ctx, "copilot");
      const server = http ? { type: "http", url, headers, tools: ["*"] } : { type: "local", ...bridge, tools: ["*"] };
      part.files.push({ path, content: json({ mcpServers: { agentmux: server } }), secret: true });
      part.argv.push("--additional-mcp-config", `@${path}`);
      break;
    }
    case "none":
      break;
  }
  return part;
}

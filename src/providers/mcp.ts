import { homedir } from "node:os";
import { basename, join } from "node:path";
import { ROLE_TOOLS } from "../schema/catalog.ts";
import { F } from "../session/paths.ts";
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
  /** researchers: the prompt file, passed per the provider's batch mode */
  batchPrompt?: string;
  /** home folder for pre-trust files (default: the user's home) */
  home?: string;
  /** the CLI conversation to start with this id, or to continue (provider.conversation) */
  conversation?: { id: string; resume: boolean };
};

/** The pieces of a launch one concern (MCP wiring, pre-trust) contributes; `links`: symlinks to make. */
export type LaunchPart = { argv: string[]; env: Record<string, string>; files: { path: string; content: string }[]; links?: { path: string; target: string }[] };

export type McpServerSpec = { command: string; args: string[]; env: Record<string, string> };

/** agentmux's own MCP server for one agent: `<self> mcp-server` with the agent's identity in env. */
export function mcpServerSpec(agent: ResolvedAgent, ctx: LaunchContext): McpServerSpec {
  return {
    command: ctx.selfCommand[0]!,
    args: [...ctx.selfCommand.slice(1), "mcp-server"],
    env: {
      AGENTMUX_SESSION_DIR: ctx.sessionDir,
      AGENTMUX_PROJECT_DIR: ctx.workDir,
      AGENTMUX_ROLE: agent.role,
      AGENTMUX_AGENT: ctx.agentKey,
      AGENTMUX_ALLOWED_TOOLS: ROLE_TOOLS[agent.role].join(","),
    },
  };
}

/** Where per-agent MCP config files live: inside the session, never in a user's config. */
export function mcpFile(ctx: LaunchContext, kind: string): string {
  const safe = ctx.agentKey.replace(/[^A-Za-z0-9_.-]/g, "_");
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
const tomlTable = (env: Record<string, string>) => `{${Object.entries(env).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(",")}}`;

/**
 * Wire agentmux's MCP server into one CLI launch, per invocation wherever the CLI allows:
 * claude/sim `--mcp-config FILE`; codex `-c mcp_servers.agentmux.*` overrides; gemini/qwen a
 * settings file named by their system-defaults path variable (lowest precedence, objects such
 * as mcpServers merge with the user's); opencode the OPENCODE_CONFIG_CONTENT overlay; copilot
 * `--additional-mcp-config @FILE`. Files are under the session folder (gemini/qwen: privateMcpDir).
 */
export function mcpWiring(agent: ResolvedAgent, ctx: LaunchContext): LaunchPart {
  const server = mcpServerSpec(agent, ctx);
  const part: LaunchPart = { argv: [], env: {}, files: [] };
  switch (agent.provider.mcp) {
    case "claude": {
      const path = mcpFile(ctx, "claude");
      // Claude Code 2.1.3xx defers MCP tools behind ToolSearch (the model sees only their names);
      // alwaysLoad keeps the completion tools in the prompt with their schemas, and makes claude
      // connect the server before its first turn (measured by test/real-cli).
      part.files.push({ path, content: json({ mcpServers: { agentmux: { type: "stdio", ...server, alwaysLoad: true } } }) });
      part.argv.push("--mcp-config", path);
      break;
    }
    case "sim": {
      const path = mcpFile(ctx, "sim");
      part.files.push({ path, content: json({ mcpServers: { agentmux: { type: "stdio", ...server } } }) });
      part.argv.push("--mcp-config", path);
      Object.assign(part.env, server.env, {
        AGENTMUX_SIM_SCENARIO: agent.sim.scenario.join(","),
        AGENTMUX_SIM_THINK_MS: String(agent.sim.think_ms),
      });
      break;
    }
    case "codex":
      part.argv.push(
        "-c", `mcp_servers.agentmux.command=${toml(server.command)}`,
        "-c", `mcp_servers.agentmux.args=${toml(server.args)}`,
        "-c", `mcp_servers.agentmux.env=${tomlTable(server.env)}`,
        "-c", `mcp_servers.agentmux.default_tools_approval_mode="approve"`,
      );
      break;
    case "gemini":
    case "qwen": {
      const safe = ctx.agentKey.replace(/[^A-Za-z0-9_.-]/g, "_");
      const settings = {
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        mcpServers: { agentmux: { ...server, trust: true } },
      };
      if (agent.provider.mcp === "gemini") {
        // see gemini-home.ts: the system layers need root-owned files, so a private home instead
        const home = geminiHome({ dir: join(privateMcpDir(ctx.sessionDir, ctx.home), `${safe}.gemini-home`), userHome: userGeminiHome(agent.provider.env, ctx.home), sessionDir: ctx.sessionDir, settings });
        Object.assign(part.env, home.env);
        part.files.push(...home.files);
        part.links = home.links;
        break;
      }
      // qwen 0.15 loads QWEN_CODE_SYSTEM_DEFAULTS_PATH without gemini's ownership check (read in its bundle)
      const path = join(privateMcpDir(ctx.sessionDir, ctx.home), `${safe}.qwen-settings.json`);
      part.files.push({ path, content: json(settings) });
      part.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH = path;
      break;
    }
    case "opencode":
      part.env.OPENCODE_CONFIG_CONTENT = JSON.stringify({
        autoupdate: false,
        mcp: { agentmux: { type: "local", command: [server.command, ...server.args], environment: server.env, enabled: true } },
      });
      break;
    case "copilot": {
      const path = mcpFile(ctx, "copilot");
      part.files.push({ path, content: json({ mcpServers: { agentmux: { type: "local", ...server, tools: ["*"] } } }) });
      part.argv.push("--additional-mcp-config", `@${path}`);
      break;
    }
    case "none":
      break;
  }
  return part;
}

import { join } from "node:path";
import { privateMcpDir } from "../session/private-dir.ts";
import { agentFileName } from "../protocol/paths.ts";
import type { ResolvedAgent } from "./resolve.ts";
import { adapterFor } from "./adapters/registry.ts";

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
  /** the environment the CLI starts from (the orchestrator's: proxies); absent: none known */
  env?: Record<string, string | undefined>;
  /** this launch's turn-end id and the file the CLI's turn-end hook appends it to (absent: no hook) */
  turnEnd?: { id: string; file: string };
  /** the CLI's version as its `--version` said at the run's first start of it (adapters with `version`), when known */
  cliVersion?: string;
};

/** The env names the turn-end hook reads (from the pane's env, which the CLI's hooks inherit). */
export const TURN_ID_ENV = "AGENTMUX_TURN_ID";
export const TURN_FILE_ENV = "AGENTMUX_TURN_ENDS";
/** where a CLI that picks its own conversation id has it written by agentmux's plugin (opencode), a file of this launch */
export const CONVERSATION_FILE_ENV = "AGENTMUX_CONVERSATION_FILE";
/** What a CLI's turn-end hook runs: its launch's id appended to the run's file. Stable: no secret, no path. */
export const TURN_END_COMMAND = `printf '%s\\n' "$${TURN_ID_ENV}" >> "$${TURN_FILE_ENV}"`;

/** A file a launch writes; `secret` files (they hold a token) are written 0600. */
/** `local`: in the agent's working folder (a CLI reads it only there), not a private one: recorded when agentmux creates it, removed when the run ends */
export type LaunchFile = { path: string; content: string; secret?: boolean; local?: true };

/**
 * The pieces of a launch one concern (MCP wiring, pre-trust) contributes; `links`: symlinks to
 * make. `env` reaches the CLI through a 0600 file its pane sources (effects/tmux env-file.ts),
 * never an argv, so it may hold the agent's token.
 */
export type LaunchPart = { argv: string[]; env: Record<string, string>; files: LaunchFile[]; links?: { path: string; target: string }[] };

/** The env names under which a CLI finds the endpoint and its token (codex), the bridge its token's file. */
export const MCP_URL_ENV = "AGENTMUX_MCP_URL";
export const MCP_TOKEN_ENV = "AGENTMUX_MCP_TOKEN";
export const MCP_TOKEN_FILE_ENV = "AGENTMUX_MCP_TOKEN_FILE";

export type McpServerSpec = { command: string; args: string[]; env: Record<string, string> };

/** The agent's token alone in a file of the private folder (0600): what the stdio bridge reads. */
export const tokenFile = (ctx: LaunchContext) => join(privateMcpDir(ctx.sessionDir, ctx.home), `${agentFileName(ctx.agentKey)}.token`);

/**
 * The stdio fallback: `<self> mcp-server`, told the endpoint and the file that holds the token in
 * its env (never the token: a process's environment is readable in /proc by every process of the
 * user, for as long as it runs). mcpWiring writes the file for a launch that names it.
 */
export function bridgeSpec(ctx: LaunchContext): McpServerSpec {
  const { url } = endpointOf(ctx);
  return { command: ctx.selfCommand[0]!, args: [...ctx.selfCommand.slice(1), "mcp-server"], env: { [MCP_URL_ENV]: url, [MCP_TOKEN_FILE_ENV]: tokenFile(ctx) } };
}

export const endpointOf = (ctx: LaunchContext) => ctx.mcp ?? { url: "http://127.0.0.1:<port>/mcp", token: "<token>" };

/**
 * Where per-agent MCP config files live: the run's private folder (privateMcpDir), never the
 * session folder (inside the project, where agents search and read) or a user's config.
 */
export function mcpFile(ctx: LaunchContext, kind: string): string {
  const safe = agentFileName(ctx.agentKey);
  return join(privateMcpDir(ctx.sessionDir, ctx.home), `${safe}.${kind}.json`);
}

export { privateMcpDir } from "../session/private-dir.ts";

export const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
/** A TOML value for codex `-c key=value`: JSON strings and arrays of strings are valid TOML. */
export const toml = (v: string | string[]) => (Array.isArray(v) ? `[${v.map((s) => JSON.stringify(s)).join(",")}]` : JSON.stringify(v));

/**
 * Wire the run's MCP endpoint into one CLI launch, per invocation wherever the CLI allows: each
 * CLI's adapter (adapters/<cli>.ts) says how. Over HTTP (the default) the CLI connects to the
 * endpoint itself with the agent's token as a bearer token; with `mcp_transport: stdio` the same
 * places name `agentmux mcp-server` instead, with the endpoint and token in its env. Files
 * holding a token are 0600; tokens are never in argv.
 */
export function mcpWiring(agent: ResolvedAgent, ctx: LaunchContext): LaunchPart {
  const adapter = adapterFor(agent.provider.mcp);
  const part = adapter ? adapter.mcp(agent, ctx) : { argv: [], env: {}, files: [] };
  // a wiring that runs the bridge names its token file (in an env, a config file, an argv): written with it
  const file = tokenFile(ctx);
  const names = (text: string) => text.includes(file) || text.includes(JSON.stringify(file).slice(1, -1));
  const named = Object.values(part.env).some(names) || part.argv.some(names) || part.files.some((f) => names(f.content));
  return named ? { ...part, files: [...part.files, { path: file, content: endpointOf(ctx).token + "\n", secret: true }] } : part;
}

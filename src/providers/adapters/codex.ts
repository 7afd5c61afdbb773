import { bridgeSpec, endpointOf, MCP_TOKEN_ENV, MCP_TOKEN_FILE_ENV, MCP_URL_ENV, toml, TURN_END_COMMAND } from "../mcp.ts";
import { codexHomeOf, codexNeedle, findCodexSession } from "../conversation.ts";
import { codexUsage, findCodexRollout } from "../usage/codex.ts";
import type { CliAdapter } from "./types.ts";

/** Codex: measured 0.169.0 and 0.171.0 (reference/real-cli-behaviour.md §2, test/real-cli; 0.171.0's screens recorded by test/real-cli/record-screens.ts). */
export const codex: CliAdapter = {
  name: "codex",
  checked: { how: "measured", versions: ["0.169.0", "0.171.0"] },
  config: String.raw`
command: codex
# what it keeps in your home: all of the home an agent sees in the sandbox (sandbox: true);
# a folder ends in / (made when missing), a file is each agent's own copy
sandbox_home: [.codex/]
npm_package: "@openai/codex"
session_dir_args: [--add-dir, "{dir}"]
model_flag: --model
default_model: null
# Interactive roles: no daemon (it outlives the pane), never ask, sandboxed writes.
# MCP approval comes from default_tools_approval_mode="approve", added by agentmux.
role_args:
  product-manager: [--no-daemon, -a, never, -s, workspace-write]
  architect: [--no-daemon, -a, never, -s, workspace-write]
  planner: [--no-daemon, -a, never, -s, workspace-write]
  designer: [--no-daemon, -a, never, -s, workspace-write]
  coder: [--no-daemon, -a, never, -s, workspace-write]
  reviewer_logic: [--no-daemon, -a, never, -s, workspace-write]
  reviewer_quality: [--no-daemon, -a, never, -s, workspace-write]
  reviewer_expert: [--no-daemon, -a, never, -s, workspace-write]
  code-researcher: [-s, workspace-write]
  web-researcher: [-s, workspace-write]
env: {}
args: [-c, check_for_update_on_startup=false]
mcp: codex
trust:
  - detect: "Trust this folder\\? Codex"
    keys: [Enter]
pre_trust: true
ask_tool: request_user_input
# codex's title says '[ . ] Action Required | repo' while an approval waits (reference §2.4).
dialogs:
  - detect: "Action Required|Allow the agentmux MCP server to run tool|enter to submit \\| esc to cancel"
    kind: permission
    dismiss: [Escape]
limits:
  - "hit your usage limit|Too Many Requests|rate limit exceeded|exceeded retry limit"
# codex picks its own session id (captured from $CODEX_HOME/sessions); 'codex resume <id>' continues it
conversation: { resume: [resume, "{id}"], capture: codex }
# token usage: the session rollout, $CODEX_HOME (else ~/.codex)/sessions/YYYY/MM/DD/rollout-*-<id>.jsonl
usage: [{ format: codex }]
batch: { args: [exec], mode: stdin }
submit: { delay_ms: 100, keys: [Enter], retries: 2, verify_ms: 1500 }
ready:
  pattern: "^› (?!\\d+\\. )"
  # Once text streams codex shows no status line; only its title spinner ('⠹ repo') says busy,
  # and a prompt pasted then is lost (measured by test/real-cli).
  busy_pattern: "esc to interrupt|^[\\u2800-\\u28ff] "
  paste_placeholder: "\\[Pasted Content \\d+ chars\\]"
  settle_ms: 500
  timeout_ms: 60000
`,
  mcp: (agent, ctx) => {
    const { url, token } = endpointOf(ctx);
    // codex takes an HTTP server's token only from its own environment (bearer_token_env_var,
    // env_http_headers) or its config.toml: over HTTP the token stays in codex's environment
    if (agent.provider.mcp_transport === "http") {
      return {
        argv: ["-c", `mcp_servers.agentmux.url=${toml(url)}`, "-c", `mcp_servers.agentmux.bearer_token_env_var=${toml(MCP_TOKEN_ENV)}`, "-c", APPROVE],
        env: { [MCP_TOKEN_ENV]: token },
        files: [],
      };
    }
    // env_vars: codex passes these from its own environment to the server (values stay out of argv);
    // the bridge reads the token from its file, so over stdio no environment holds it
    const bridge = bridgeSpec(ctx);
    const argv = [
      "-c",
      `mcp_servers.agentmux.command=${toml(bridge.command)}`,
      "-c",
      `mcp_servers.agentmux.args=${toml(bridge.args)}`,
      "-c",
      `mcp_servers.agentmux.env_vars=${toml([MCP_URL_ENV, MCP_TOKEN_FILE_ENV])}`,
      "-c",
      APPROVE,
    ];
    return { argv, env: { ...bridge.env }, files: [] };
  },
  mcpNote: '-c mcp_servers.agentmux.url + bearer_token_env_var (default_tools_approval_mode="approve")',
  // codex runs its notify program (with the event's JSON as its last argument) when a turn completes
  turnEndHook: () => ({ argv: ["-c", `notify=${toml(["sh", "-c", TURN_END_COMMAND, "agentmux-turn-end"])}`], env: {}, files: [] }),
  // per invocation, nothing written (worktrees included)
  preTrust: (_agent, workDir) => ({
    argv: ["-c", `projects={${JSON.stringify(workDir)}={trust_level="trusted"}}`],
    env: {},
    files: [],
    note: "pre-trusted per invocation (-c projects override)",
  }),
  // the namespace mcp__agentmux holds the bare tool names
  toolName: (t) => t,
  usage: { home: codexHomeOf, find: findCodexRollout, parse: codexUsage },
  captureConversation: ({ env, sinceMs, promptLine }) => findCodexSession(codexHomeOf(env), sinceMs, codexNeedle(promptLine)),
};

/** `-a never` alone makes every MCP call fail; the server's own approval mode lets them through. */
const APPROVE = `mcp_servers.agentmux.default_tools_approval_mode="approve"`;

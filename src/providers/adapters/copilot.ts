import { join } from "node:path";
import { agentFileName } from "../../protocol/paths.ts";
import { bridgeSpec, endpointOf, json, mcpFile, privateMcpDir, TURN_END_COMMAND } from "../mcp.ts";
import { copilotHome, copilotUsage, findCopilotEvents } from "../usage/copilot.ts";
import type { CliAdapter } from "./types.ts";

/**
 * GitHub Copilot CLI: flags read from 1.0.102's help and changelog (cli-evidence.md §3); its
 * trust, idle, paste and busy screens measured in tmux in its own-endpoint mode (#27).
 */
export const copilot: CliAdapter = {
  name: "copilot",
  checked: { how: "measured", versions: ["1.0.102"] },
  config: String.raw`
command: copilot
# what it keeps in your home: all of the home an agent sees in the sandbox (sandbox: true);
# a folder ends in / (made when missing), a file is each agent's own copy
sandbox_home: [.copilot/, .config/github-copilot]
npm_package: "@github/copilot"
model_flag: --model
default_model: null
# --allow-all (= --yolo): tools, paths and URLs; --allow-all-tools alone still asks for paths
# outside the folder and for URLs, which stalls an unattended pane (cli-evidence.md §3)
default_role_args: [--allow-all]
env: {}
# its rate-limit and quota errors (not recorded: the words its API errors use)
limits:
# own-endpoint mode: after 5 retries of its own, 'Failed to get response from the AI model; … Last error: 429 …' (captured, #27.8)
  - "you have been rate-limited|Too Many Requests|\\(429\\)|[Qq]uota exceeded|exceeded your (monthly )?premium requests|Last error: 429\\b"
# '--session-id <uuid>' names a new session up front; '--resume=<id>' continues it (1.0.102 help)
conversation: { start: [--session-id, "{id}"], resume: ["--resume={id}"] }
# token usage: each model call's receipt in <COPILOT_HOME or ~/.copilot>/session-state/<id>/events.jsonl (measured 1.0.102)
usage: [{ format: copilot }]
mcp: copilot
# Copilot has no per-invocation trust switch; agentmux answers the dialog instead.
trust:
  - detect: "Do you trust the files in this folder\\?"
    keys: [Enter]
pre_trust: false
batch: { args: [-p], mode: flag }
single_coder: true
sub_agent_tool: task
ask_tool: ask_user
# Not measured in tmux: no ready pattern, the settle wait alone gates the first prompt.
submit: { delay_ms: 150, keys: [Enter], retries: 2, verify_ms: 1500 }
ready:
  # an empty '❯' between two full-width rules (measured, 1.0.102); not while its MCP servers load
  pattern: "^─+\\n❯[ \\u00a0]*\\n─+"
  # working, its footer reads '◎ Working esc esc edit prompt' (the glyph pulses; measured, 1.0.102)
  busy_pattern: "esc esc edit prompt|^ \\S (Working|Thinking)\\b|still waiting on mcp"
  settle_ms: 1500
  timeout_ms: 90000
`,
  // --additional-mcp-config works in an untrusted folder and augments the user's config for one session
  mcp: (agent, ctx) => {
    const { url, token } = endpointOf(ctx);
    const path = mcpFile(ctx, "copilot");
    const server =
      agent.provider.mcp_transport === "http"
        ? { type: "http", url, headers: { Authorization: `Bearer ${token}` }, tools: ["*"] }
        : { type: "local", ...bridgeSpec(ctx), tools: ["*"] };
    return { argv: ["--additional-mcp-config", `@${path}`], env: {}, files: [{ path, content: json({ mcpServers: { agentmux: server } }), secret: true }] };
  },
  mcpNote: "--additional-mcp-config @<private folder>/<agent>.copilot.json (0600, under ~/.cache/agentmux)",
  // its agentStop hook (the main agent ends its turn), from a plugin loaded for this launch only
  // (--plugin-dir <private folder>): measured, 1.0.102 ran it at each turn's end with the pane's env
  turnEndHook: (ctx) => {
    const dir = join(privateMcpDir(ctx.sessionDir, ctx.home), `${agentFileName(ctx.agentKey)}.copilot-plugin`);
    const manifest = { name: "agentmux-turn-end", description: "tells agentmux that this agent ended its turn", version: "1.0.0", hooks: "hooks.json" };
    const hooks = { version: 1, hooks: { agentStop: [{ type: "command", bash: TURN_END_COMMAND, timeoutSec: 10 }] } };
    return {
      argv: ["--plugin-dir", dir],
      env: {},
      files: [
        { path: join(dir, "plugin.json"), content: json(manifest) },
        { path: join(dir, "hooks.json"), content: json(hooks) },
      ],
    };
  },
  // Not measured: copilot names MCP tools `<server>-<tool>` in its own docs and UI.
  toolName: (t) => `agentmux-${t}`,
  usage: { home: copilotHome, find: findCopilotEvents, parse: copilotUsage },
};

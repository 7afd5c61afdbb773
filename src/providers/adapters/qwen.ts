import { join } from "node:path";
import { agentFileName } from "../../protocol/paths.ts";
import { json, privateMcpDir, TURN_END_COMMAND } from "../mcp.ts";
import { geminiFamilySettings } from "./gemini.ts";
import { proxyIn } from "../../effects/proxy.ts";
import { findQwenChat, qwenHome, qwenUsage } from "../usage/qwen.ts";
import type { CliAdapter } from "./types.ts";

/**
 * qwen 0.15 hides every MCP tool behind its tool_search tool (each submit costs the model an
 * extra turn); without tool_search it offers them all directly (its startChat reveals the
 * deferred tools when no search tool is registered). A whole-tool deny keeps it unregistered.
 */
const TOOL_SEARCH = "tool_search";

/** Qwen Code: measured 0.15.10 and 0.24.4 (reference/real-cli-behaviour.md §4, issue #27; 0.24.4's screens recorded by test/real-cli/record-screens.ts). */
export const qwen: CliAdapter = {
  name: "qwen",
  checked: { how: "measured", versions: ["0.15.10", "0.24.4"] },
  config: String.raw`
command: qwen
# what it keeps in your home: all of the home an agent sees in the sandbox (sandbox: true);
# a folder ends in / (made when missing), a file is each agent's own copy
sandbox_home: [.qwen/]
npm_package: "@qwen-code/qwen-code"
session_dir_args: [--include-directories, "{dir}"]
model_flag: --model
default_model: null
default_role_args: [--approval-mode, yolo]
env: {}
# without trust (agentmux's server has it) qwen asks before an MCP call (reference §4)
dialogs:
  - detect: "Allow execution of MCP tool|Waiting for user confirmation"
    kind: permission
    dismiss: [Escape]
# the OpenAI-compatible API's 429 as qwen prints it ('[API Error: …]', like gemini); not recorded
limits:
  - "Too Many Requests|rate_limit_exceeded|API Error: 429|status 429|\\(429\\)|insufficient_quota|[Qq]uota exceeded"
# qwen 0.15.10 takes the id of a new session (--session-id) and continues one by id (--resume)
conversation: { start: [--session-id, "{id}"], resume: [--resume, "{id}"] }
# token usage: the chat, <QWEN_RUNTIME_DIR, QWEN_HOME or ~/.qwen>/projects/<folder>/chats/<id>.jsonl (measured 0.24.4)
usage: [{ format: qwen }]
mcp: qwen
trust: []
pre_trust: true
ask_tool: ask_user_question
batch: { args: [], mode: stdin }
submit: { delay_ms: 100, keys: [Enter], retries: 2, verify_ms: 1500 }
ready:
  pattern: "Type your message or @path/to/file"
  busy_pattern: "esc to cancel"
  # a gemini fork: its long pastes collapse like gemini's
  paste_placeholder: "\\[Pasted (Text|Content)"
  settle_ms: 500
  timeout_ms: 60000
`,
  // qwen 0.15 loads QWEN_CODE_SYSTEM_DEFAULTS_PATH without gemini's ownership check (read in its bundle)
  mcp: (agent, ctx) => {
    const path = join(privateMcpDir(ctx.sessionDir, ctx.home), `${agentFileName(ctx.agentKey)}.qwen-settings.json`);
    // qwen sends even a loopback MCP connection through an HTTP(S) proxy (it ignores NO_PROXY):
    // with one set, it starts the stdio bridge instead, which keeps loopback off the proxy
    const proxied = proxyIn({ ...ctx.env, ...agent.provider.env }) !== null;
    const wired = proxied ? { ...agent, provider: { ...agent.provider, mcp_transport: "stdio" as const } } : agent;
    // its Stop hook (Claude's shape) runs agentmux's turn-end command; the id comes from its env
    const hooks = ctx.turnEnd ? { hooks: { Stop: [{ hooks: [{ type: "command", command: TURN_END_COMMAND }] }] } } : {};
    // no follow-up suggestion after a turn (0.24.4 asks the model for one at each turn's end, and a paste
    // that lands meanwhile shows only with the next input, 2.5-3 s later or never: #27); a user's own
    // ui.enableFollowupSuggestions still wins, this file being qwen's lowest settings layer
    const ui = { ui: { enableFollowupSuggestions: false } };
    const settings = { ...geminiFamilySettings(wired, ctx), permissions: { deny: [TOOL_SEARCH] }, ...ui, ...hooks };
    return { argv: [], env: { QWEN_CODE_SYSTEM_DEFAULTS_PATH: path }, files: [{ path, content: json(settings), secret: true }] };
  },
  mcpNote: "QWEN_CODE_SYSTEM_DEFAULTS_PATH=<private settings file> (trust: true)",
  // the Stop hook is in the settings file above (measured: qwen 0.15.10 ran it at each turn's end)
  turnEndHook: () => ({ argv: [], env: {}, files: [] }),
  toolName: (t) => `mcp__agentmux__${t}`,
  usage: { home: qwenHome, find: findQwenChat, parse: qwenUsage },
  doctor: (env) => {
    const proxy = proxyIn(env);
    return proxy
      ? [
          {
            ok: true,
            label: "qwen and your proxy",
            detail: `${proxy.name}=${proxy.value} is set: qwen sends even its loopback MCP connection through it (it ignores NO_PROXY), so agentmux wires qwen's MCP over stdio (agentmux mcp-server), which keeps loopback off the proxy`,
          },
        ]
      : [];
  },
};

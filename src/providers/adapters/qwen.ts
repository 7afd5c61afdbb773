import { join } from "node:path";
import { agentFileName } from "../../protocol/paths.ts";
import { json, privateMcpDir } from "../mcp.ts";
import { geminiFamilySettings } from "./gemini.ts";
import type { CliAdapter } from "./types.ts";

/** Qwen Code: measured 0.15.10 (reference/real-cli-behaviour.md §4, issue #27). */
export const qwen: CliAdapter = {
  name: "qwen",
  checked: { how: "measured", versions: ["0.15.10"] },
  config: String.raw`
command: qwen
# what it keeps in your home: all of the home an agent sees in the sandbox (sandbox: true)
sandbox_home: [.qwen]
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
mcp: qwen
trust: []
pre_trust: true
ask_tool: ask_user_question
batch: { args: [], mode: stdin }
submit: { delay_ms: 100, keys: [Enter], retries: 2, verify_ms: 1500, escape_safe: false }
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
    return { argv: [], env: { QWEN_CODE_SYSTEM_DEFAULTS_PATH: path }, files: [{ path, content: json(geminiFamilySettings(agent, ctx)), secret: true }] };
  },
  mcpNote: "QWEN_CODE_SYSTEM_DEFAULTS_PATH=<private settings file> (trust: true)",
  toolName: (t) => `mcp__agentmux__${t}`,
};

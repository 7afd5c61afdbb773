import { join } from "node:path";
import { agentFileName } from "../../protocol/paths.ts";
import { geminiHome, userGeminiHome } from "../gemini-home.ts";
import { geminiSystemFileChecks } from "../gemini-system.ts";
import { bridgeSpec, endpointOf, privateMcpDir, TURN_END_COMMAND, TURN_FILE_ENV, TURN_ID_ENV, type LaunchContext } from "../mcp.ts";
import { findGeminiChat, geminiUsage } from "../usage/gemini.ts";
import type { CliAdapter } from "./types.ts";

/** The settings block gemini and qwen share: agentmux's server (trusted: no confirmation) and no self-update. */
export function geminiFamilySettings(agent: Parameters<CliAdapter["mcp"]>[0], ctx: Parameters<CliAdapter["mcp"]>[1]): Record<string, unknown> {
  const { url, token } = endpointOf(ctx);
  const server =
    agent.provider.mcp_transport === "http"
      ? { httpUrl: url, headers: { Authorization: `Bearer ${token}` }, trust: true }
      : { ...bridgeSpec(ctx), trust: true };
  return { general: { enableAutoUpdate: false, enableAutoUpdateNotification: false }, mcpServers: { agentmux: server } };
}

/** Gemini CLI: measured 0.61.0 (reference/real-cli-behaviour.md §3, test/real-cli). */
export const gemini: CliAdapter = {
  name: "gemini",
  checked: { how: "measured", versions: ["0.61.0"] },
  config: String.raw`
command: gemini
# what it keeps in your home: all of the home an agent sees in the sandbox (sandbox: true);
# a folder ends in / (made when missing), a file is each agent's own copy
sandbox_home: [.gemini/]
npm_package: "@google/gemini-cli"
session_dir_args: [--include-directories, "{dir}"]
model_flag: --model
default_model: null
default_role_args: [--approval-mode, yolo]
# GEMINI_CLI_TRUST_WORKSPACE=true is added by pre_trust.
# gemini 0.61 starts headless, reads a prompt from stdin and exits 42 ("No input provided via
# stdin") whenever CI=true or GITHUB_ACTIONS=true — every 'agentmux run --ci' in a CI job.
# GEMINI_CLI_INTEGRATION_TEST=true is its only switch that skips that check and leaves CI as
# it is for the agent's own commands (it also turns off gemini's folder trust, which
# GEMINI_CLI_TRUST_WORKSPACE covers already). Measured by test/real-cli/pipeline.test.ts.
env:
  GEMINI_CLI_INTEGRATION_TEST: "true"
mcp: gemini
trust:
  - detect: "Do you trust the files in this folder\\?"
    keys: [Enter]
pre_trust: true
ask_tool: ask_user
# the title says '✋  Action Required (repo)' while a confirmation waits (reference §3.4)
dialogs:
  - detect: "Action Required|Allow execution of MCP tool|Waiting for user confirmation"
    kind: permission
    dismiss: [Escape]
limits:
  - "Quota exceeded|RESOURCE_EXHAUSTED|status 429|Too Many Requests|[Rr]ate limit"
conversation: { start: [--session-id, "{id}"], resume: [--resume, "{id}"] }
# token usage: the chat, <.gemini>/tmp/<project>/chats/session-<time>-<id8>.jsonl, in the
# user's ~/.gemini (GEMINI_CLI_HOME), else in the session folder (a user without chats yet)
usage: [{ format: gemini }, { format: gemini, home: "{session}/.runtime/gemini" }]
batch: { args: [-p], mode: flag }
# gemini turns an Enter within 40 ms of a paste into a newline; Esc cancels generation.
submit: { delay_ms: 150, keys: [Enter], retries: 2, verify_ms: 1500 }
ready:
  pattern: "Type your message or @path/to/file"
  # A prompt pasted before its MCP servers are up waits under "Queued" while the title says
  # Ready, and after leaving the queue shows nothing until its turn starts (its '> ' echo
  # below "Prompts will be queued."); both are busy, not a finished turn (test/real-cli).
  busy_pattern: "esc to cancel|Queued \\(press ↑ to edit\\)|Prompts will be queued\\.(?![\\s\\S]*^> )"
  paste_placeholder: "\\[Pasted Text: \\d+ (chars|lines)\\]"
  settle_ms: 1000
  timeout_ms: 90000
`,
  // see gemini-home.ts: the system layers need root-owned files, so a private home instead
  mcp: (agent, ctx) => {
    const dir = join(privateMcpDir(ctx.sessionDir, ctx.home), `${agentFileName(ctx.agentKey)}.gemini-home`);
    const home = geminiHome({
      dir,
      userHome: userGeminiHome(agent.provider.env, ctx.home),
      sessionDir: ctx.sessionDir,
      settings: geminiFamilySettings(agent, ctx),
      hooks: afterAgentHook(ctx),
    });
    return { argv: [], env: { ...home.env }, files: home.files.map((f) => ({ ...f, secret: true })), links: home.links };
  },
  mcpNote: "GEMINI_CLI_HOME=<private home> (your ~/.gemini linked, its settings merged; trust: true)",
  // per invocation; worktrees are new folders, so the env is what covers them
  preTrust: () => ({ argv: [], env: { GEMINI_CLI_TRUST_WORKSPACE: "true" }, files: [], note: "pre-trusted per invocation (GEMINI_CLI_TRUST_WORKSPACE)" }),
  toolName: (t) => `mcp_agentmux_${t}`,
  // the AfterAgent hook is in the private settings file above (afterAgentHook)
  turnEndHook: () => ({ argv: [], env: {}, files: [] }),
  usage: { home: (env) => join(userGeminiHome(env), ".gemini"), find: findGeminiChat, parse: geminiUsage },
  doctor: (env) => [...geminiSystemFileChecks(env), retirementNote()],
};

/**
 * gemini's AfterAgent hook ("once per turn after the model generates its final response", its
 * docs/hooks/reference.md, 0.61.0), running agentmux's turn-end command: none for a batch run
 * or without a turn-end id. gemini hands a hook a sanitized environment (in a GitHub Actions job
 * only PATH, HOME and a few more pass), so the launch's id and file ride on the hook's own `env`;
 * hooks load only in a trusted folder, which pre_trust makes the worktree. Timeout in ms.
 */
function afterAgentHook(ctx: LaunchContext): Record<string, unknown[]> {
  if (!ctx.turnEnd || ctx.batchPrompt !== undefined) return {};
  const env = { [TURN_ID_ENV]: ctx.turnEnd.id, [TURN_FILE_ENV]: ctx.turnEnd.file };
  return { AfterAgent: [{ hooks: [{ type: "command", name: "agentmux-turn-end", command: TURN_END_COMMAND, env, timeout: 10_000 }] }] };
}

/**
 * Google retired Gemini CLI for consumer accounts on 2026-06-18 (reference/cli-evidence.md §2):
 * an API key or a paid Code Assist licence still works; everyone else has Antigravity (agy).
 */
export const GEMINI_RETIREMENT =
  "Google retired Gemini CLI for consumer Google accounts (AI Pro/Ultra, free Code Assist) on 2026-06-18: it still works with GEMINI_API_KEY, Vertex AI or a paid Code Assist licence; a consumer account gets 'IneligibleTierError' and should use Antigravity (provider agy)";

function retirementNote() {
  return {
    ok: true,
    label: "gemini accounts",
    detail: `${GEMINI_RETIREMENT}; for such an account install agy and set defaults.provider: agy (or roles.<role>.provider)`,
  };
}

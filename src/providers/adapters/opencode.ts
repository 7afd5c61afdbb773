import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { F } from "../../protocol/paths.ts";
import type { TokenFigures } from "../../schema/usage.ts";
import { jsonLines, n, sumFigures, type Parsed } from "../usage/claude.ts";
import { bridgeSpec, CONVERSATION_FILE_ENV, endpointOf, json, mcpFile } from "../mcp.ts";
import { TURN_FILE_ENV, TURN_ID_ENV } from "../mcp.ts";
import type { LaunchPart } from "../mcp.ts";
import type { CliAdapter } from "./types.ts";
import { z } from "zod";
import { worktreeLocalFiles } from "./worktree-file.ts";

/**
 * An opencode plugin: on session.idle, the launch's turn-end id (from its env) appended to the
 * run's file. A function: the adapters load while mcp.ts (its names) is still loading.
 */
const opencodePlugin = () => `// agentmux: tells the run that started this opencode when a turn ended (absent env: not one of its agents)
import { appendFileSync } from "node:fs";

export const AgentmuxTurnEnd = async () => ({
  event: async ({ event }) => {
    const id = process.env.${TURN_ID_ENV};
    const file = process.env.${TURN_FILE_ENV};
    if (event?.type === "session.idle" && id && file) appendFileSync(file, id + "\\n");
  },
});
`;

/** the folder agentmux's plugin keeps each session's token figures in, `<session id>.jsonl` (from message.updated) */
const RECORDS_ENV = "AGENTMUX_OPENCODE_RECORDS";

/**
 * A second plugin (the turn-end plugin's content stays as it was, so a worktree that has it
 * keeps it). On session.created of a top-level session (a sub-agent's has a parentID), its id
 * written to the launch's file named in the env: opencode picks its own `ses_…` id and
 * continues one with `--session <id>` (its --help: "session id to continue"). On
 * message.updated of an assistant message, its token figures appended to the session's record
 * file (opencode's own records are not documented in agentmux's references; its published
 * message info carries `tokens {input, output, reasoning, cache {read, write}}` and `modelID`).
 */
const sessionPlugin =
  () => `// agentmux: tells the run that started this opencode which session it opened and what its model used (absent env: not one of its agents)
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const AgentmuxSession = async () => ({
  event: async ({ event }) => {
    const info = event?.properties?.info;
    const file = process.env.${CONVERSATION_FILE_ENV};
    if (event?.type === "session.created" && file && typeof info?.id === "string" && !info.parentID) writeFileSync(file, JSON.stringify({ id: info.id }) + "\\n");
    const records = process.env.${RECORDS_ENV};
    if (event?.type === "message.updated" && records && info?.role === "assistant" && info.tokens && /^ses_[A-Za-z0-9]+$/.test(info.sessionID ?? "")) {
      mkdirSync(records, { recursive: true });
      appendFileSync(join(records, info.sessionID + ".jsonl"), JSON.stringify({ message: info.id, model: info.modelID ?? null, tokens: info.tokens }) + "\\n");
    }
  },
});
`;

/** What the plugin writes for a launch: the id of its top-level opencode session. */
const ConversationRecord = z.object({ id: z.string().regex(/^ses_[A-Za-z0-9]+$/) });

/** The session id agentmux's plugin wrote to this launch's file, or null (not yet, or not one it can use). */
function opencodeSessionOf(env: Record<string, string>): string | null {
  const file = env[CONVERSATION_FILE_ENV];
  if (!file) return null;
  try {
    const text = readFileSync(file, "utf8");
    const record = ConversationRecord.safeParse(JSON.parse(text));
    return record.success ? record.data.id : null;
  } catch {
    return null; // absent, empty, or caught mid-write: looked at again
  }
}

/**
 * One session's figures as agentmux's plugin recorded them: a line per update of an assistant
 * message, the last per message counting; input without cache reads (opencode counts those
 * apart), reasoning as output.
 */
function opencodeUsage(text: string): Parsed | null {
  const byMessage = new Map<string, TokenFigures>();
  let model: string | null = null;
  let anon = 0;
  for (const o of jsonLines(text)) {
    const t = o?.tokens;
    if (!t || typeof t !== "object") continue;
    byMessage.set(typeof o.message === "string" ? o.message : `#${anon++}`, {
      input: n(t.input),
      cached: n(t.cache?.read),
      cache_write: n(t.cache?.write),
      output: n(t.output) + n(t.reasoning),
    });
    if (typeof o.model === "string" && o.model) model = o.model;
  }
  return sumFigures(byMessage.values(), model);
}

/** as long as opencode's ready timeout: the MCP-ready gate waits that long anyway */
const MCP_TIMEOUT_MS = 150_000;

/** OpenCode: measured 1.18.33 (reference/real-cli-behaviour.md §4, cli-evidence.md §3, issue #27). */
export const opencode: CliAdapter = {
  name: "opencode",
  checked: { how: "measured", versions: ["1.18.33"] },
  config: String.raw`
command: opencode
# what it keeps in your home: all of the home an agent sees in the sandbox (sandbox: true);
# a folder ends in / (made when missing), a file is each agent's own copy
sandbox_home: [.config/opencode/, .local/share/opencode/, .local/state/opencode/, .cache/opencode/]
npm_package: "opencode-ai"
model_flag: --model
default_model: null
env: {}
# the API's 429 as opencode prints it (not recorded: the words of the API error it shows)
limits:
  - "Too Many Requests|rate_limit_exceeded|[Rr]ate limit exceeded \\(429\\)|\\(429\\)|insufficient_quota|[Qq]uota exceeded"
mcp: opencode
trust: []
pre_trust: true
# its session id is picked by opencode and written by agentmux's plugin at session.created;
# --session continues it (a restarted agent keeps its conversation)
conversation: { resume: [--session, "{id}"], capture: opencode }
# token usage: what agentmux's plugin recorded from its message.updated events, per session
usage: [{ format: opencode, home: "{session}/.runtime/opencode" }]
# opencode's built-in ask tool (on for its terminal client)
ask_tool: question
batch: { args: [run], mode: positional }
# its first start fetches its provider package: two first starts at once left one pane blank for
# 4 minutes (1.18.33, issue #27), so the second waits for the first to get ready
first_start_alone: true
# on a loaded machine its screen froze for over 4.5 s after a paste, Enter taken only then (#27.8)
submit: { delay_ms: 100, keys: [Enter], retries: 2, verify_ms: 4000 }
ready:
  pattern: "ctrl\\+p commands"
  busy_pattern: "esc interrupt"
  # even a one-line paste shows as this, never as the text (1.18.33, issue #27)
  paste_placeholder: "\\[Pasted ~\\d+ lines?\\]"
  # on a wide pane its sidebar (context, MCP, folder) sits at the right end of each line, 4+ spaces
  # after the main column; below the agent's last words come its message footer (▣ Build · model),
  # the input box (┃, ╹▀▀) and the footer line (1.18.33, #27: a question at a turn end was not seen)
  sidebar_gap: 4
  chrome: "^[▣┃╹]"
  settle_ms: 500
  # its first start (fetching its provider package) took 56-90 s on a loaded machine (issue #27)
  timeout_ms: 150000
`,
  mcp: (agent, ctx): LaunchPart => {
    const { url, token } = endpointOf(ctx);
    const bridge = bridgeSpec(ctx);
    // opencode gives an MCP server 5 s to connect and list its tools, then marks it failed for good
    // (1.18.33: "server unavailable … status=failed" on a loaded machine, #27.8); the same limit holds each tool call
    const timeout = MCP_TIMEOUT_MS;
    if (agent.provider.mcp_transport !== "http") {
      // the inline config overlay: the bridge's token is in its file, so nothing secret is in opencode's environment
      const server = { type: "local", command: [bridge.command, ...bridge.args], environment: bridge.env, enabled: true, timeout };
      return { argv: [], env: { OPENCODE_CONFIG_CONTENT: JSON.stringify({ autoupdate: false, mcp: { agentmux: server } }) }, files: [] };
    }
    const config = json({
      autoupdate: false,
      mcp: { agentmux: { type: "remote", url, headers: { Authorization: `Bearer ${token}` }, enabled: true, timeout } },
    });
    // the header holds the token: in a 0600 file of the private folder that OPENCODE_CONFIG names (opencode's
    // custom config file, merged over the user's global one), not in the environment — unless the user
    // names a custom config of their own there, which it must not replace: then the inline overlay
    if (ctx.env?.OPENCODE_CONFIG) return { argv: [], env: { OPENCODE_CONFIG_CONTENT: config.trim() }, files: [] };
    const path = mcpFile(ctx, "opencode");
    return { argv: [], env: { OPENCODE_CONFIG: path }, files: [{ path, content: config, secret: true }] };
  },
  mcpNote: "OPENCODE_CONFIG=<private folder>/<agent>.opencode.json (0600, under ~/.cache/agentmux); stdio: OPENCODE_CONFIG_CONTENT",
  // its session.idle event, heard by a plugin it loads from the worktree's .opencode/plugins/
  // (stable content, kept out of git); the plugin does nothing in an opencode agentmux did not start
  // A second plugin there writes the session id opencode picked to this launch's (private) file.
  turnEndHook: (ctx): LaunchPart => {
    const [turnEnd, session] = worktreeLocalFiles(ctx.workDir, [
      { rel: ".opencode/plugins/agentmux-turn-end.js", content: opencodePlugin() },
      { rel: ".opencode/plugins/agentmux-session.js", content: sessionPlugin() },
    ]);
    if (!session) return { argv: [], env: {}, files: turnEnd ?? [] };
    const file = mcpFile(ctx, "opencode-session");
    const records = join(ctx.sessionDir, F.runtimeDir, "opencode");
    return { argv: [], env: { [CONVERSATION_FILE_ENV]: file, [RECORDS_ENV]: records }, files: [...(turnEnd ?? []), ...session, { path: file, content: "" }] };
  },
  captureConversation: ({ env }) => opencodeSessionOf(env),
  // what agentmux's plugin recorded per session (format opencode; home: that folder, set in the config block)
  usage: {
    home: () => "",
    find: (home, id) => (home && /^ses_[A-Za-z0-9]+$/.test(id) && existsSync(join(home, `${id}.jsonl`)) ? join(home, `${id}.jsonl`) : null),
    parse: opencodeUsage,
  },
  toolName: (t) => `agentmux_${t}`,
};

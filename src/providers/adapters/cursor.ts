import { join } from "node:path";
import { shellWord } from "../../effects/tmux/session.ts";
import { agentFileName } from "../../protocol/paths.ts";
import { bridgeSpec, endpointOf, json, privateMcpDir, TURN_END_COMMAND } from "../mcp.ts";
import type { CliAdapter } from "./types.ts";
import { worktreeLocalFile } from "./worktree-file.ts";
import { versionAtLeast } from "./version.ts";

/** the first version that takes `--trust` in an interactive session (cli-evidence.md §1) */
const TRUST_FLAG_FROM = "2026.07.20";

/**
 * Cursor's CLI (`cursor-agent`, also installed as `agent`). Built from the published behaviour
 * of 2026.06.15–2026.09.02 (reference/cli-evidence.md §1: cli-agent-orchestrator's recorded
 * panes, multica and the Python agentmux); not run here.
 *
 * MCP: cursor reads only `.cursor/mcp.json` (the project's, or the user's global one) or a
 * plugin folder: agentmux gives each agent a private plugin folder (`--plugin-dir`, its
 * `plugin.json` holding the server, 0600, under ~/.cache/agentmux) and `--approve-mcps`, so
 * neither the checkout nor ~/.cursor is written. Over HTTP (stdio servers it starts do not
 * inherit its environment). Folder trust: the dialog is answered (`a`), which every version
 * shows; `--trust` is refused interactively before 2026.07.20, so it is not passed.
 */
export const cursor: CliAdapter = {
  name: "cursor",
  checked: { how: "published", versions: ["2026.06.15", "2026.07.20", "2026.09.02"] },
  install: "Cursor's CLI installer from cursor.com (it puts cursor-agent in ~/.local/bin or ~/.cursor/bin: have that on PATH)",
  config: String.raw`
# 'agent' is the same program, but the name collides with other tools (gpg-agent)
command: cursor-agent
# what it keeps in your home: all of the home an agent sees in the sandbox (sandbox: true);
# a folder ends in / (made when missing), a file is each agent's own copy
sandbox_home: [.cursor/, .config/cursor]
npm_package: null
model_flag: --model
default_model: null
# run commands without asking; approve agentmux's server without the dialog
default_role_args: [--force, --approve-mcps]
session_dir_args: [--add-dir, "{dir}"]
env:
  NO_OPEN_BROWSER: "1"
mcp: cursor
trust:
  - detect: "Workspace Trust Required|\\[a\\] Trust this workspace"
    keys: [a]
  - detect: "Do you trust the files in this folder\\? \\[y/n\\]"
    keys: [y, Enter]
  - detect: "\\[a\\] Approve all servers"
    keys: [a]
pre_trust: false
dialogs:
  - detect: "Use /auto-run to skip all approvals|reject & propose changes|write to this file\\?|skip \\(esc or n\\)"
    kind: permission
    dismiss: [Escape]
limits:
  - "hit your usage limit|[Uu]sage limit (reached|exceeded)|spend limit|spendLimits"
# its own chats: 'create-chat' prints a new chat's id, '--resume <chatId>' continues it
# (cli-evidence.md §1); a restarted agent keeps its conversation
conversation: { create: [create-chat], resume: [--resume, "{id}"] }
batch: { args: [--print, --trust, --force], mode: positional }
submit: { delay_ms: 150, keys: [Enter], retries: 2, verify_ms: 2000 }
ready:
  # the composer's hint, fresh or after a turn, without 'ctrl+c to stop' (busy) on its line
  pattern: "(Plan, search, build anything|Add a follow-up)(?!.*ctrl\\+c to stop)"
  busy_pattern: "ctrl\\+c to stop"
  paste_placeholder: "\\[Pasted text"
  settle_ms: 1000
  timeout_ms: 90000
`,
  // `cursor-agent --version` prints `2026.07.20-<build>` (also as `agent 2026.…`); --trust skips
  // the trust dialog where the version takes it interactively (earlier ones exit with an error)
  version: {
    parse: (out) => /\b(20\d\d\.\d{1,2}\.\d{1,2})\b/.exec(out)?.[1] ?? null,
    adapt: (v) => (versionAtLeast(v, TRUST_FLAG_FROM) ? { argv: ["--trust"], notes: [] } : { argv: [], notes: [] }),
  },
  mcp: (agent, ctx) => {
    const { url, token } = endpointOf(ctx);
    const dir = join(privateMcpDir(ctx.sessionDir, ctx.home), `${agentFileName(ctx.agentKey)}.cursor-plugin`);
    const bridge = bridgeSpec(ctx);
    // a stdio server gets everything in its entry: cursor does not pass its env on
    const server =
      agent.provider.mcp_transport === "http"
        ? { url, headers: { Authorization: `Bearer ${token}` } }
        : { command: bridge.command, args: bridge.args, env: bridge.env };
    const plugin = { name: "agentmux", version: "1.0.0", description: "agentmux's completion tools for this run", mcpServers: { agentmux: server } };
    return { argv: ["--plugin-dir", dir], env: {}, files: [{ path: join(dir, "plugin.json"), content: json(plugin), secret: true }] };
  },
  mcpNote: "--plugin-dir <private folder>/plugin.json (0600, under ~/.cache/agentmux) + --approve-mcps",
  toolName: (t) => t,
  // its stop hook, from the worktree's .cursor/hooks.json (stable content, kept out of git); a
  // hook run without cursor's environment writes an empty line, which is ignored
  turnEndHook: (ctx) => ({
    argv: [],
    env: {},
    files:
      worktreeLocalFile(ctx.workDir, ".cursor/hooks.json", json({ version: 1, hooks: { stop: [{ command: `sh -c ${shellWord(TURN_END_COMMAND)}` }] } })) ?? [],
  }),
};

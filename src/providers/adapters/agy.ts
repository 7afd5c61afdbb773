import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { shellWord } from "../../effects/tmux/session.ts";
import { ROLE_TOOLS } from "../../schema/catalog.ts";
import { bridgeSpec, json, TURN_END_COMMAND, type LaunchContext } from "../mcp.ts";
import type { CliAdapter } from "./types.ts";
import { worktreeLocalFiles } from "./worktree-file.ts";
import { versionAtLeast } from "./version.ts";

/**
 * The Antigravity CLI (`agy`), Google's successor of Gemini CLI for consumer accounts. Built
 * from the published behaviour of agy 1.0.10–1.2.7 (reference/agy-evidence.md: recorded screens
 * of cli-agent-orchestrator, firstmate's measurements, the official docs); not run here.
 *
 * MCP: agy has no per-launch flag. Its workspace file `.agents/mcp_config.json` names the stdio
 * bridge (`agentmux mcp-server`), the same for every agent, so its content never changes; the
 * bridge finds the endpoint and the agent's token in the environment it inherits from agy.
 * The file stays out of git through info/exclude. Its tools are listed in `enabledTools` (agy's
 * auto-approve list). Folder trust and the feedback survey live in agy's global settings, so
 * they are answered on screen instead.
 */
export const agy: CliAdapter = {
  name: "agy",
  checked: { how: "published", versions: ["1.0.10", "1.1.28", "1.2.2", "1.2.7"] },
  install: "curl -fsSL https://antigravity.google/cli/install.sh | bash (it puts agy in ~/.local/bin: have that on PATH)",
  config: String.raw`
command: agy
# what it keeps in your home: all of the home an agent sees in the sandbox (sandbox: true);
# a folder ends in / (made when missing), a file is each agent's own copy
sandbox_home: [.gemini/]
npm_package: null
model_flag: --model
default_model: null
# never asks before a tool (workspace trust is not covered: answered below)
default_role_args: [--dangerously-skip-permissions]
session_dir_args: [--add-dir, "{dir}"]
env:
  AGY_CLI_DISABLE_AUTO_UPDATE: "true"
mcp: agy
# the workspace file names 'agentmux mcp-server', which reads the endpoint from agy's env
mcp_transport: stdio
trust:
  - detect: "Do you trust the contents of this project\\?|Yes, I trust this folder"
    keys: [Enter]
  # the feedback survey blocks the composer and shows 'esc to cancel' like a turn
  - detect: "How's the CLI experience"
    keys: ["0"]
pre_trust: false
dialogs:
  - detect: "Do you want to proceed\\?|\\[y/n\\]"
    kind: permission
    dismiss: [Escape]
# quota resets can be days away (agy-evidence §7)
limits:
  - "Individual quota reached|RESOURCE_EXHAUSTED|QUOTA_EXHAUSTED|Resource has been exhausted"
# agy mints its own conversation id: found in its brain folder by the prompt it was sent
conversation: { resume: [--conversation, "{id}"], capture: agy }
batch: { args: [--dangerously-skip-permissions, --print], mode: flag }
# an Enter too soon after a paste becomes a newline (cli-agent-orchestrator#517)
submit: { delay_ms: 500, keys: [Enter], retries: 3, verify_ms: 3000 }
ready:
  # an empty '>' between the last two rules, '? for shortcuts' below them
  pattern: "^>\\s*\\n─+\\n(?!.*esc to cancel).*\\? for shortcuts"
  busy_pattern: "esc to cancel"
  paste_placeholder: "\\[Pasted text #\\d+"
  # a turn sent in the first seconds may be swallowed by its account check: let it settle
  settle_ms: 2000
  timeout_ms: 90000
`,
  // `agy --version` prints the bare version (agy-evidence.md §12); nothing it takes changes, but
  // what older ones ignore is said at the start
  version: { parse: (out) => /^\s*v?(\d+\.\d+\.\d+)\s*$/m.exec(out)?.[1] ?? null, adapt: (v) => ({ argv: [], notes: agyVersionNotes(v) }) },
  mcp: (agent, ctx) => {
    const bridge = bridgeSpec(ctx);
    const tools = [...new Set(Object.values(ROLE_TOOLS).flat())].sort();
    const content = json({ mcpServers: { agentmux: { command: bridge.command, args: bridge.args, enabledTools: tools } } });
    // one call for both files: each call writes info/exclude from what is on disk, so two would drop each other's line
    const wanted = [{ rel: ".agents/mcp_config.json", content }, ...(stopHookWanted(ctx) ? [{ rel: ".agents/hooks.json", content: agyHooks() }] : [])];
    const files = worktreeLocalFiles(ctx.workDir, wanted).flatMap((f) => f ?? []);
    return { argv: [], env: { ...bridge.env }, files };
  },
  // the Stop hook is in the worktree's .agents/hooks.json, written with the MCP file above (agyHooks; functions: the adapters load while mcp.ts is still loading)
  turnEndHook: () => ({ argv: [], env: {}, files: [] }),
  mcpNote: "<worktree>/.agents/mcp_config.json (stable: 'agentmux mcp-server', endpoint and token from agy's env; kept out of git via info/exclude)",
  // the name its model sees is not published (its screen shows `agentmux/<tool>`): the bare name
  toolName: (t) => t,
  captureConversation: ({ env, sinceMs, promptLine }) => findAgyConversation(agyHome(env), sinceMs, promptLine),
};

/**
 * agy's Stop hook (agy-evidence.md §8): fires at a turn's end on 1.1.27 and 1.2.7 (not on Linux
 * 1.1.11, antigravity-cli#770: the screen rule stays the fallback). Its own schema, a named
 * bundle (a Claude-shaped file is ignored without a word); it may fire with `fullyIdle:false`
 * first while a shell command runs in the background, so only `fullyIdle:true` (or a payload
 * without it) counts. It prints `{}` (a Stop hook's "end normally") and does nothing in an agy
 * agentmux did not start (no id in its env). Stable content: the id and file come from agy's env,
 * which the stdio MCP bridge relies on as well.
 */
const stopCommand = () =>
  `sh -c ${shellWord(`p=$(cat); case "$p" in *'"fullyIdle":false'*|*'"fullyIdle": false'*) ;; *) [ -n "$AGENTMUX_TURN_ID" ] && ${TURN_END_COMMAND} ;; esac; printf '{}'`)}`;
const agyHooks = () => json({ agentmux: { enabled: true, Stop: [{ type: "command", command: stopCommand(), timeout: 10 }] } });

/** a turn-end id, and not a batch run (`--print` ends with the process) */
const stopHookWanted = (ctx: LaunchContext) => !!ctx.turnEnd && ctx.batchPrompt === undefined;

/** What a version of agy is published to ignore (agy-evidence.md §3, §4, §8). */
function agyVersionNotes(v: string): string[] {
  if (!versionAtLeast(v, "1.1.0"))
    return [
      "agy 1.0.x takes a model by its display name and ignored --model in interactive sessions, and 1.0.12 read the workspace .agents/mcp_config.json without loading it (agentmux's tools would be missing): update agy to 1.1.10 or newer",
    ];
  const notes: string[] = [];
  if (!versionAtLeast(v, "1.1.10"))
    notes.push("agy before 1.1.10 ignores --model in interactive sessions: the account's default model is used; update agy to set one");
  if (v === "1.1.11") notes.push("agy 1.1.11 loaded its Stop hook and never ran it on Linux (antigravity-cli#770): its turn ends come from the screen");
  return notes;
}

/** agy's state folder: `~/.gemini/antigravity-cli` of the HOME it runs with. */
export const agyHome = (env: Record<string, string>) => join(env.HOME || process.env.HOME || homedir(), ".gemini", "antigravity-cli");

/**
 * The conversation a launch started: a `brain/<uuid>/` made since `sinceMs` whose transcript
 * holds the prompt line agentmux sent (agents share one agy home). Null when none does (yet).
 */
export function findAgyConversation(home: string, sinceMs: number, promptLine: string): string | null {
  const brain = join(home, "brain");
  if (!existsSync(brain)) return null;
  const needle = JSON.stringify(promptLine).slice(1, -1);
  for (const id of readdirSync(brain)) {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) continue;
    const file = join(brain, id, ".system_generated", "logs", "transcript.jsonl");
    try {
      if (statSync(join(brain, id)).mtimeMs < sinceMs - 1000) continue;
      if (readFileSync(file, "utf8").slice(0, 2_000_000).includes(needle)) return id;
    } catch {
      // not written yet
    }
  }
  return null;
}

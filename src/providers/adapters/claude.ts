import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { bridgeSpec, endpointOf, json, mcpFile, TURN_END_COMMAND } from "../mcp.ts";
import { claudeUsage, findClaudeTranscript } from "../usage/claude.ts";
import type { CliAdapter, PreTrust } from "./types.ts";

/** Claude Code: measured 2.1.197, 2.1.330 and 2.1.332 (reference/real-cli-behaviour.md §1, test/real-cli; 2.1.332's screens recorded by test/real-cli/record-screens.ts). */
export const claude: CliAdapter = {
  name: "claude",
  checked: { how: "measured", versions: ["2.1.197", "2.1.330", "2.1.332"] },
  config: String.raw`
command: claude
# what it keeps in your home: all of the home an agent sees in the sandbox (sandbox: true);
# a folder ends in / (made when missing), a file is each agent's own copy
sandbox_home: [.claude/, .claude.json, .config/claude]
npm_package: "@anthropic-ai/claude-code"
session_dir_args: [--add-dir, "{dir}"]
model_flag: --model
default_model: null
# The MCP tools of each role are added to --allowedTools by agentmux itself (mcp: claude).
# Read-only roles may run the git commands their prompts ask for in every common spelling
# ('git status', 'git -C <dir> status', 'git ls-files --others'): a command outside the list
# opens a permission dialog that nobody answers in a headless run (#12.12). '*' is claude's
# wildcard inside a rule.
default_role_args: [--permission-mode, acceptEdits]
role_args:
  product-manager: [--allowedTools, "Read,Glob,Grep,Bash(ls:*),Bash(cat:*),Bash(find:*),Bash(grep:*),Bash(git log:*),Bash(git diff:*),Bash(git status:*),Bash(git show:*),Bash(git ls-files:*),Bash(git rev-parse:*),Bash(git branch:*),Bash(git -C * log:*),Bash(git -C * diff:*),Bash(git -C * status:*),Bash(git -C * show:*),Bash(git -C * ls-files:*),Bash(git -C * rev-parse:*),Bash(git -C * branch:*),Bash(head:*),Bash(tail:*),Bash(wc:*),Bash(pwd)"]
  architect: [--allowedTools, "Read,Glob,Grep,Bash(ls:*),Bash(cat:*),Bash(find:*),Bash(grep:*),Bash(git log:*),Bash(git diff:*),Bash(git status:*),Bash(git show:*),Bash(git ls-files:*),Bash(git rev-parse:*),Bash(git branch:*),Bash(git -C * log:*),Bash(git -C * diff:*),Bash(git -C * status:*),Bash(git -C * show:*),Bash(git -C * ls-files:*),Bash(git -C * rev-parse:*),Bash(git -C * branch:*),Bash(head:*),Bash(tail:*),Bash(wc:*),Bash(pwd)"]
  planner: [--allowedTools, "Read,Glob,Grep,Bash(ls:*),Bash(cat:*),Bash(find:*),Bash(grep:*),Bash(git log:*),Bash(git diff:*),Bash(git status:*),Bash(git show:*),Bash(git ls-files:*),Bash(git rev-parse:*),Bash(git branch:*),Bash(git -C * log:*),Bash(git -C * diff:*),Bash(git -C * status:*),Bash(git -C * show:*),Bash(git -C * ls-files:*),Bash(git -C * rev-parse:*),Bash(git -C * branch:*),Bash(head:*),Bash(tail:*),Bash(wc:*),Bash(pwd)"]
  designer: [--allowedTools, "Read,Glob,Grep,Write,Edit"]
  coder: [--allowedTools, "Read,Glob,Grep,Write,Edit,MultiEdit,Bash"]
  reviewer_logic: [--allowedTools, "Read,Glob,Grep,Write,Bash(git log:*),Bash(git diff:*),Bash(git status:*),Bash(git show:*),Bash(git ls-files:*),Bash(git rev-parse:*),Bash(git branch:*),Bash(git -C * log:*),Bash(git -C * diff:*),Bash(git -C * status:*),Bash(git -C * show:*),Bash(git -C * ls-files:*),Bash(git -C * rev-parse:*),Bash(git -C * branch:*),Bash(ls:*),Bash(cat:*),Bash(grep:*),Bash(find:*),Bash(head:*),Bash(tail:*),Bash(wc:*)"]
  reviewer_quality: [--allowedTools, "Read,Glob,Grep,Write,Bash(git log:*),Bash(git diff:*),Bash(git status:*),Bash(git show:*),Bash(git ls-files:*),Bash(git rev-parse:*),Bash(git branch:*),Bash(git -C * log:*),Bash(git -C * diff:*),Bash(git -C * status:*),Bash(git -C * show:*),Bash(git -C * ls-files:*),Bash(git -C * rev-parse:*),Bash(git -C * branch:*),Bash(ls:*),Bash(cat:*),Bash(grep:*),Bash(find:*),Bash(head:*),Bash(tail:*),Bash(wc:*)"]
  reviewer_expert: [--allowedTools, "Read,Glob,Grep,Write,Bash(git log:*),Bash(git diff:*),Bash(git status:*),Bash(git show:*),Bash(git ls-files:*),Bash(git rev-parse:*),Bash(git branch:*),Bash(git -C * log:*),Bash(git -C * diff:*),Bash(git -C * status:*),Bash(git -C * show:*),Bash(git -C * ls-files:*),Bash(git -C * rev-parse:*),Bash(git -C * branch:*),Bash(ls:*),Bash(cat:*),Bash(grep:*),Bash(find:*),Bash(head:*),Bash(tail:*),Bash(wc:*)"]
  code-researcher: [--allowedTools, "Read,Glob,Grep,Write,Edit,Bash(ls:*),Bash(cat:*),Bash(find:*),Bash(grep:*),Bash(git log:*),Bash(git diff:*),Bash(git status:*),Bash(git show:*),Bash(git ls-files:*),Bash(git rev-parse:*),Bash(git branch:*),Bash(git -C * log:*),Bash(git -C * diff:*),Bash(git -C * status:*),Bash(git -C * show:*),Bash(git -C * ls-files:*),Bash(git -C * rev-parse:*),Bash(git -C * branch:*)"]
  web-researcher: [--allowedTools, "Read,Glob,Grep,Write,Edit,WebFetch,WebSearch"]
env:
  DISABLE_AUTOUPDATER: "1"
  CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1"
mcp: claude
trust:
  - detect: "Quick safety check"
    keys: [Enter]
  - detect: "Do you trust the (files|contents) in this (folder|directory)\\?"
    keys: [Enter]
ask_tool: AskUserQuestion
# AskUserQuestion's dialog offers "Chat about this"; permission dialogs ask "Do you want to …?"
# while the title looks idle (reference §1.4). Esc cancels either.
dialogs:
  - detect: "Chat about this"
    kind: question
    dismiss: [Escape]
  - detect: "Do you want to (proceed|make this edit|create|allow|run)"
    kind: permission
    dismiss: [Escape]
# claude 2.1.330 shows '● API Error: Request rejected (429) · <the API's message>' (measured, test/real-cli)
limits:
  - "usage limit reached|limit will reset|API Error: (Request rejected )?\\(?(429|529)\\b|rate_limit_error|Repeated 529 Overloaded|overloaded_error"
conversation: { start: [--session-id, "{id}"], resume: [--resume, "{id}"] }
# token usage: the conversation's transcript, $CLAUDE_CONFIG_DIR (else ~/.claude)/projects/*/<id>.jsonl
usage: [{ format: claude }]
# Pre-trusting claude means editing ~/.claude.json (a global file); opt in with true.
pre_trust: false
batch: { args: [-p], mode: flag }
submit: { delay_ms: 100, keys: [Enter], retries: 2, verify_ms: 1500 }
# An empty box is '❯' + NBSP; a placeholder in it ('❯' + NBSP + 'Resend your message to try
# again' after an API error) is empty too. Typed text follows '❯' + a plain space; a paste's
# '[Pasted text #N]' follows the NBSP (measured, test/real-cli).
ready:
  pattern: "^❯(?:[ \\u00a0]*|\\u00a0(?!\\[Pasted text).*)\\n─+\\n(?!.*esc to interrupt).*$"
  busy_pattern: "esc to interrupt"
  paste_placeholder: "\\[Pasted text #\\d+"
  settle_ms: 500
  timeout_ms: 60000
`,
  mcp: (agent, ctx) => {
    const { url, token } = endpointOf(ctx);
    const path = mcpFile(ctx, "claude");
    // Claude Code 2.1.3xx defers MCP tools behind ToolSearch (the model sees only their names);
    // alwaysLoad keeps the completion tools in the prompt with their schemas, and makes claude
    // connect the server before its first turn (measured by test/real-cli).
    const server =
      agent.provider.mcp_transport === "http"
        ? { type: "http", url, headers: { Authorization: `Bearer ${token}` }, alwaysLoad: true }
        : { type: "stdio", ...bridgeSpec(ctx), alwaysLoad: true };
    return { argv: ["--mcp-config", path], env: {}, files: [{ path, content: json({ mcpServers: { agentmux: server } }), secret: true }] };
  },
  mcpNote: "--mcp-config <private folder>/<agent>.claude.json (0600, under ~/.cache/agentmux) + --allowedTools per role",
  preTrust: (_agent, workDir, home) => claudeTrust(workDir, home),
  // its Stop hook runs at the end of every turn; --settings adds a settings file for this launch only
  turnEndHook: (ctx) => {
    const path = mcpFile(ctx, "claude-settings");
    const settings = { hooks: { Stop: [{ hooks: [{ type: "command", command: TURN_END_COMMAND, timeout: 10 }] }] } };
    return { argv: ["--settings", path], env: {}, files: [{ path, content: json(settings) }] };
  },
  toolName: (t) => `mcp__agentmux__${t}`,
  allowTools: (args, tools, workDir) => {
    const out = [...args];
    const i = out.findIndex((a) => a === "--allowedTools" || a === "--allowed-tools");
    if (i >= 0 && i + 1 < out.length) {
      // Rule lists may hold spaces inside parentheses (`Bash(git log:*)`): only append.
      const have = out[i + 1]!.split(",").map((s) => s.trim());
      const missing = [...tools, ...ownFolderGit(have, workDir)].filter((t) => !have.includes(t));
      if (missing.length) out[i + 1] = [out[i + 1], ...missing].filter(Boolean).join(",");
    } else out.push("--allowedTools", tools.join(","));
    return out;
  },
  usage: {
    home: (env) => env.CLAUDE_CONFIG_DIR || process.env.CLAUDE_CONFIG_DIR || join(env.HOME || process.env.HOME || homedir(), ".claude"),
    find: findClaudeTranscript,
    parse: claudeUsage,
  },
};

/**
 * A role allowed read-only git in any folder (`Bash(git -C * status:*)`) gets the same commands
 * in its own folder spelled out, as models write them (`git -C /abs/dir status`, the path quoted
 * when it has a space): claude 2.1.197 matched no rule with a '*' inside and asked, and a
 * headless run declines (#27).
 */
function ownFolderGit(rules: readonly string[], workDir: string): string[] {
  const spellings = [workDir, JSON.stringify(workDir), `'${workDir}'`].filter((p, i) => i === 0 || /\s/.test(workDir));
  return ["status", "diff", "log", "show"]
    .filter((cmd) => rules.includes(`Bash(git -C * ${cmd}:*)`))
    .flatMap((cmd) => spellings.map((p) => `Bash(git -C ${p} ${cmd}:*)`));
}

/**
 * Only ~/.claude.json `projects[dir].hasTrustDialogAccepted` pre-trusts claude: a global file
 * that claude itself rewrites, so this runs only with `pre_trust: true` (off by default) and
 * the entry stays; otherwise the trust dialog is detected and answered.
 */
function claudeTrust(workDir: string, home: string): PreTrust {
  const path = join(home, ".claude.json");
  const left = (why: string): PreTrust => ({ argv: [], env: {}, files: [], note: `${path} ${why}; left alone, trust dialog answered instead` });
  let text: string | null = null;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    text = null;
  }
  let state: Record<string, any> = {};
  if (text !== null && text.trim() !== "") {
    try {
      state = JSON.parse(text);
    } catch {
      return left("is not valid JSON");
    }
    if (typeof state !== "object" || state === null || Array.isArray(state)) return left("is not a JSON object");
  }
  const projects = typeof state.projects === "object" && state.projects !== null ? state.projects : {};
  if (projects[workDir]?.hasTrustDialogAccepted === true) return { argv: [], env: {}, files: [], note: `already trusted in ${path}` };
  const next = { ...state, projects: { ...projects, [workDir]: { ...(projects[workDir] ?? {}), hasTrustDialogAccepted: true } } };
  return { argv: [], env: {}, files: [{ path, content: JSON.stringify(next, null, 2) + "\n" }], note: `pre-trusted in ${path} (global file, entry kept)` };
}

import { command } from "../spec.ts";

const sessionDir = { name: "session-dir", about: "the session folder", required: true, values: "files" } as const;

export const githubAction = command({
  name: "github-action",
  summary: "the GitHub Action's entry: decide from the event, run, report on the issue (internal)",
  hidden: true,
  usage: ["github-action check|run"],
  about: `The entry of the agentmux GitHub Action (action.yml); it runs as a step of a GitHub Actions
job and reads the job's environment: GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY,
GITHUB_OUTPUT, and the action's inputs as INPUT_<NAME> variables.

  check   decide from the event whether to run (issue labelled or assigned, a comment or
          review starting with the trigger phrase, by a trusted author; bots never) and
          which agent CLI packages to install; writes the step outputs run, reason,
          target, packages, artifact. Exits 0 either way.
  run     the whole run: the request from the issue or the review, one progress comment
          kept up to date, agentmux headless with --json progress, commit, push, pull
          request (or, for a review, a fix round pushed to the pull request's branch).
          Exits with agentmux's exit code.

See docs/github-action.md.`,
  flags: {},
  args: [{ name: "step", about: "the step (check or run)", required: true, choices: ["check", "run"] }],
});

export const orchestrate = command({
  name: "orchestrate",
  summary: "run a session's orchestrator (internal)",
  hidden: true,
  about: "Internal: the detached orchestrator process of one session.",
  flags: {},
  args: [sessionDir],
});

export const simAgent = command({
  name: "sim-agent",
  summary: "the simulated agent CLI (internal)",
  hidden: true,
  about: `The simulated agent CLI (internal: demo, tests, CI). Run it in a tmux pane with cwd = the
agent's work dir and env AGENTMUX_SESSION_DIR, AGENTMUX_PROJECT_DIR, AGENTMUX_ROLE,
AGENTMUX_AGENT, AGENTMUX_SIM_SCENARIO (comma-separated switches), AGENTMUX_SIM_THINK_MS.`,
  flags: {
    "mcp-config": { type: "string", value: "FILE", values: "files", help: "claude-shaped MCP config; its server is spawned at startup" },
    prompt: { type: "string", value: "FILE", values: "files", help: "batch mode: do the task in FILE and exit 0 when done" },
    "session-id": { type: "string", value: "ID", help: "start conversation ID (kept in <session>/.runtime/sim/conversations/)" },
    resume: { type: "string", value: "ID", help: "continue conversation ID" },
    transcript: { type: "string", value: "FORMAT", help: "record token usage like claude (the default) or codex, in <session>/.runtime/sim/<format>/" },
  },
  args: [],
});

export const mcpServer = command({
  name: "mcp-server",
  summary: "the stdio bridge to the run's MCP endpoint (for a CLI that cannot use HTTP)",
  hidden: true,
  usage: ["mcp-server   (spawned by an agent CLI; MCP on stdin/stdout)"],
  about: `The stdio fallback of the run's MCP endpoint (providers.<name>.mcp_transport: stdio):
every message is forwarded to the endpoint the orchestrator serves on 127.0.0.1.

Environment (set by agentmux in the agent's MCP config):
  AGENTMUX_MCP_URL         the run's endpoint, http://127.0.0.1:<port>/mcp
  AGENTMUX_MCP_TOKEN_FILE  a file (0600) holding the agent's secret token
                           (it names the agent and its role)
  AGENTMUX_MCP_TOKEN       the token itself, when no file is named`,
  flags: {},
  args: [],
  helpToStderr: true,
});

export const monitor = command({
  name: "monitor",
  summary: "pipeline monitor for the control pane",
  hidden: true,
  about: "The pipeline monitor shown in the control pane.",
  flags: {},
  args: [sessionDir],
});

export const home = command({
  name: "home",
  summary: "home screen: sessions, new run, resume, attach",
  hidden: true,
  usage: ["   (no arguments, in a terminal)"],
  about: "The home screen: sessions, new run, resume, attach, delete.",
  flags: {},
  args: [],
});

export const panel = command({
  name: "panel",
  summary: "completion panel: approve or request changes",
  hidden: true,
  about: "The completion panel: approve (writes approval.json) or request changes (writes changes.md).",
  flags: {},
  args: [sessionDir],
});

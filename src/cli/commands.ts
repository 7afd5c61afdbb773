/**
 * The command table. Each command module is loaded with a dynamic import, so `--version`
 * and `mcp-server` never load blessed, isomorphic-git or the MCP client.
 */
export type CommandModule = { run(argv: string[]): Promise<number> };
export type CommandEntry = { summary: string; hidden?: boolean; load: () => Promise<CommandModule> };

export const COMMANDS: Record<string, CommandEntry> = {
  run: { summary: "start a pipeline run for a request (the default command)", load: () => import("./run.ts") },
  demo: { summary: "run the whole pipeline with simulated agents in a scratch repository", load: () => import("./demo.ts") },
  issue: { summary: "start a run from a GitHub issue (needs gh)", load: () => import("./issue.ts") },
  init: { summary: "set up agentmux in this repository", load: () => import("./init.ts") },
  configure: { summary: "change providers and models per role", load: () => import("./configure.ts") },
  status: { summary: "show a session: phase, timeline, agents, reviews (works without tmux)", load: () => import("./status.ts") },
  sessions: { summary: "list this project's sessions", load: () => import("./sessions.ts") },
  resume: { summary: "resume an interrupted session", load: () => import("./resume.ts") },
  attach: { summary: "attach the terminal to a running session", load: () => import("./attach.ts") },
  clean: { summary: "remove session folders and kill their tmux sessions", load: () => import("./clean.ts") },
  validate: { summary: "check one artifact file against its contract", load: () => import("./validate.ts") },
  config: { summary: "print the resolved configuration and where each value came from", load: () => import("./config.ts") },
  doctor: { summary: "check tmux, the configured agent CLIs, their MCP and trust wiring, and gh", load: () => import("./doctor.ts") },
  completions: { summary: "print a shell completion script (bash, zsh or fish)", load: () => import("./completions.ts") },
  "github-action": { summary: "the GitHub Action's entry: decide from the event, run, report on the issue (internal)", hidden: true, load: () => import("./github-action.ts") },
  orchestrate: { summary: "run a session's orchestrator (internal)", hidden: true, load: () => import("./orchestrate.ts") },
  "sim-agent": { summary: "the simulated agent CLI (internal)", hidden: true, load: () => import("./sim-agent.ts") },
  "mcp-server": { summary: "the stdio MCP server agent CLIs spawn (submit_* tools)", hidden: true, load: () => import("./mcp-server.ts") },
  monitor: { summary: "pipeline monitor for the control pane", hidden: true, load: () => import("./monitor.ts") },
  home: { summary: "home screen: sessions, new run, resume, attach", hidden: true, load: () => import("./home.ts") },
  panel: { summary: "completion panel: approve or request changes", hidden: true, load: () => import("./panel.ts") },
};

import { command } from "../spec.ts";

const session = { name: "session", about: "a session id (or a unique part of one) or folder", values: "sessions" } as const;

export const status = command({
  name: "status",
  summary: "show a session: phase, timeline, agents, reviews (works without tmux)",
  about: `Show a session's phase, timeline, agents, groups, reviews and research — works on live,
finished and failed sessions, without tmux. [session] is an id, a path, or (default) the newest.`,
  flags: {
    json: { type: "boolean", help: "print one JSON object (stable field names)" },
    watch: { type: "boolean", help: "redraw whenever the session's files change (Ctrl-C to stop)" },
    log: { type: "boolean", help: "print the orchestrator's log, one readable line per record (with --json: the records)" },
  },
  args: [session],
});

export const sessions = command({
  name: "sessions",
  summary: "list this project's sessions",
  about: "List this project's sessions, newest first: id, phase, last event, last update, live/stopped.",
  flags: { json: { type: "boolean", help: "print a JSON list" } },
  args: [],
});

export const resume = command({
  name: "resume",
  summary: "resume an interrupted session",
  about: `Resumes an interrupted session (by id or folder; without one: the only resumable session, or a
menu when there are several). The phase of a failed run is inferred from its artifacts; only
tool events not yet applied are replayed. A session of the Python agentmux is refused unless
--from-python is given: its state.json is then converted (the original kept as
state.python.json) and the phase inferred from its artifacts (docs/migrating.md).`,
  flags: {
    "from-python": { type: "boolean", help: "convert a session the Python agentmux wrote, then resume it" },
    ci: { type: "boolean", help: "headless: progress on stdout, no attach" },
    json: { type: "boolean", help: "with --ci: progress as one JSON object per line" },
    "keep-session": { type: "boolean", help: "keep the session folder after a successful commit (from now on)" },
    config: { type: "string", value: "PATH", values: "files", help: "a config file applied last from now on (replaces the one given at start)" },
    "watch-ci": { type: "boolean", help: "a finished run: follow its pull request's CI and run fix rounds while it fails (github.ci_fix_rounds)" },
  },
  args: [session],
});

export const attach = command({
  name: "attach",
  summary: "attach the terminal to a running session",
  about: `Attach this terminal to a running session (default: the newest running one). A run that
waits for your approval shows its approval panel again; when the run ends while you watch, you
see how.`,
  flags: {},
  args: [session],
});

export const cancel = command({
  name: "cancel",
  summary: "cancel a running session (it stays resumable)",
  about: `Cancel a running session (default: the newest running one), as the monitor's c does: its
orchestrator stops the agents and keeps the session for \`agentmux resume\`. Waits until the run
has stopped and says how it ended; --no-wait only asks.`,
  flags: { "no-wait": { type: "boolean", help: "ask for the cancel and return at once" } },
  args: [session],
});

export const clean = command({
  name: "clean",
  summary: "remove session folders and kill their tmux sessions",
  about: `Remove session folders and kill their live tmux sessions. Without [session…], every session
of this project. Lists exactly what will go and asks y/N; --force skips the question (and is
required when stdin is not a terminal).`,
  flags: { force: { type: "boolean", alias: "f", help: "do not ask" } },
  args: [{ ...session, variadic: true }],
});

export const serve = command({
  name: "serve",
  summary: "a live web page of every run, reachable from a phone (read-only unless --answer)",
  about: `Serve a live web page of this project's runs (or of the projects given): phase, timeline,
agents and their screens, usage, reviews with their file anchors, the diff, the log — updated as
the runs go, by server-sent events. With --answer the page can also approve (leaving files out,
editing the commit message), request changes, answer an agent's question, go on past a budget and
cancel, through the same decision files as the approval panel and the monitor.

Bound to 127.0.0.1 unless --host is given. Every request needs the server's random token: the
link printed once at start carries it, and the server's file <project>/.agentmux/.sessions/.serve.json
(mode 0600) keeps it. Requests naming another Host or coming from another site are refused.
Reach it from a phone through an SSH tunnel or a private network (docs/web.md), never the open internet.`,
  flags: {
    port: { type: "string", value: "PORT", help: "the port to listen on (default 7878; 0 picks a free one)" },
    host: { type: "string", value: "ADDR", help: "the address to listen on (default 127.0.0.1; another address is reachable by others: see docs/web.md)" },
    "allow-host": {
      type: "string",
      value: "NAME",
      multiple: true,
      help: "a name this server may be reached by besides localhost (a private network's name for this machine); repeatable",
    },
    answer: { type: "boolean", help: "let the page answer runs: approve, request changes, answer a question, go on, cancel" },
    until: { type: "string", value: "DIR", hidden: true, help: "stop a few seconds after this session's run has ended (agentmux run --serve)" },
  },
  args: [{ name: "project", about: "a project folder (default: the current project)", variadic: true, values: "files" }],
});

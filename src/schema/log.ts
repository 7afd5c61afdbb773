import { z } from "zod";

/**
 * The orchestrator's log (orchestrator.log): one JSON object per line with stable keys —
 * `ts`, `level`, `event`, `msg`, then `agent`, `phase`, `pane`, `error`, `data` when they
 * apply. `event` says what happened in a word a program can match; `msg` says it in a
 * sentence for people. Tests and tools read records, never the sentence.
 */
export const LOG_EVENTS = {
  orchestrator_started:
    "an orchestrator process took the run (fresh or resumed); `phase`, `data.pid`, `data.last_event`, `data.boot_ms` (its process's start-up until then)",
  orchestrator_finished: "the orchestrator ended the run; `data.code`, `data.cleanup` (the session folder is removed)",
  orchestrator_crashed: "an unexpected exception ended the orchestrator; `error`",
  transition: "an event moved the state machine; `agent`, `phase` (after), `data.type`, `data.from`, `data.last_event`, `data.effects`",
  state_machine:
    "a note from the state machine itself (a `log` effect): a rejected tool call, an ignored event, an agent's trouble; `agent`, `data.note` (table below)",
  effects_replayed: "effects an interrupted transition left were run again at start; `data.count`",
  tool_calls_replayed: "tool calls made while no orchestrator ran were applied at start; `data.count`",
  effect_failed: "an effect could not be carried out; `data.effect`, `error`",
  run_lost: "the run cannot go on (its session folder or tmux session is gone); `data.reason`",
  agent_launched:
    "an agent's pane started, or a pre-started one was taken over (`data.prestarted_ms`: how long before; `data.prestart_ready_ms`: how long it had been ready for its prompt, null when not yet; `data.prestarted_as`: the id it was pre-started under by role); `agent`, `pane`, `data.provider`, `data.model`, `data.argv`",
  agent_prestarted:
    "the next phase's agent was started ahead in the hidden window (`prestart`); `agent` (its key, or `<role>~p<n>` when started by role: `data.by_role`), `pane`, `data.provider`, `data.role` (or `error`)",
  prestart_dropped:
    "a pre-started agent was closed unused (the run went another way, it exited, or the run paused); `agent` (as in agent_prestarted), `pane`, `data.why`",
  delivered:
    "a prompt or note was pasted and accepted; `pane`, `data.ms`, `data.attempts`, and where the time went: `data.ready_ms` (ready gate), `data.paste_ms` (paste shown), `data.delay_ms` (the submit delay), `data.accept_ms` (the submit taken)",
  delivery_failed: "a prompt could not be delivered (or the agent exited meanwhile); `agent` or `pane`, `data.reason`",
  paste_retried: "a pasted prompt never showed and the input box stayed empty: it is pasted again (bounded); `pane`, `data.paste` (which paste)",
  dialog_answered: "a trust or other known dialog was answered or dismissed; `agent` or `pane`, `data.keys`",
  committed: "the approved change was committed; `data.commit`, `data.branch`, `data.pr_url`",
  commit_failed: "the commit failed; `error`",
  worktree_setup:
    "a `worktree.setup` command starts (`data.index`, `data.of`, `data.command`) and ends (also `data.code`, `data.timed_out`, `data.seconds`, `data.output`: its last 200 lines)",
  agents_paused:
    "a watched run reached its budget (limits): the live agents' CLIs are stopped (SIGSTOP, mid-turn too), and no agent starts and no prompt goes out until the go-on; `data.agents`",
  agents_continued:
    "the user let a paused run go on (or it ended): the agents' processes were continued; `data.agents`, `data.held` (launches and prompts made now)",
  launch_held: "an agent the run starts while paused at its budget waits for the go-on; `agent`",
  usage_unreadable: "an agent's usage record (transcript, rollout) could not be read; `agent`, `error`, `data.conversation`",
  check:
    "a project check ran (its own process group in the run's working tree): `data.run`, `data.name`, `data.status`, `data.exit_code`, `data.duration_ms`, `data.pre_existing`, `data.log` (its output, session-relative)",
  watchdog: "the watchdog saw something: an agent without output, a turn that ended, a limit",
  notify: "`notify.command` was run for the run's user; `data.notify` (needs_you, done, failed), `data.ok` (its output: .runtime/notify.log)",
  note: "anything else, in words",
} as const;

/**
 * What a `state_machine` record is about: `data.note`, a stable word (the other `data` keys
 * are the note's details). The state machine's `log` effect carries it.
 */
export const STATE_NOTES = {
  stuck: "an agent is stuck; `data.reason`",
  question: "an agent asks a question or permission; `data.kind`, `data.headless` (answered by policy)",
  reminder: "an agent ended its turn without its submit: a reminder goes out; `data.attempt`, `data.limit`, `data.owed` (tool or file)",
  usage_limit: "an agent hit a usage limit; `data.fallback` (the provider it restarts on) or `data.reset_at`",
  agent_exited: "an agent's pane exited; `data.exit_status`, `data.screen` (its last lines)",
  restart: "an exited agent is restarted with its prompt; `data.restart`, `data.of`",
  submit_refused: "a coder's submit_done was not accepted (the verification gate); `data.plan`, `data.reason`",
  ignored: "an event or request the current phase has no use for; `data.event`",
  fix_round: "a fix round ended: the line comments it addressed; `data.round`, `data.addressed`, `data.not_addressed`",
  loop_cap: "review failed at the loop cap; `data.iterations`, `data.decision`",
  research_restart: "an interrupted research topic starts again; `data.type`, `data.topic`",
  budget: "the run reached its budget (limits; `data.over`), or the user lets it go on past it (`data.go_on`)",
  tool_rejected: "a tool line was rejected when applied; `data.tool`, `data.reason`",
  checks:
    "a project check finished and counted (`data.run`, `data.name`, `data.status`, `data.pre_existing`), or unfinished checks run again on resume (`data.run`, `data.names`)",
  bug: "the state machine refused its own move (a bug in agentmux); `data.error`",
} as const;
export type StateNote = keyof typeof STATE_NOTES;
export const StateNote = z.enum(Object.keys(STATE_NOTES) as [StateNote, ...StateNote[]]);

export type LogEvent = keyof typeof LOG_EVENTS;
export const LogEvent = z.enum(Object.keys(LOG_EVENTS) as [LogEvent, ...LogEvent[]]);
export const LogLevel = z.enum(["debug", "info", "warn", "error"]);
export type LogLevel = z.infer<typeof LogLevel>;

export const LogRecord = z.strictObject({
  ts: z.string().describe("when, ISO 8601 UTC with milliseconds"),
  level: LogLevel.describe("how much it matters"),
  event: LogEvent.describe("what happened, as a stable word (table below)"),
  msg: z.string().describe("what happened, as a sentence for people"),
  agent: z.string().optional().describe("the agent it concerns (`coder:2`, `reviewer_logic`…)"),
  phase: z.string().optional().describe("the workflow phase (after a transition)"),
  pane: z.string().optional().describe("the tmux pane it concerns (`%7`)"),
  error: z.string().optional().describe("a stack trace or error message"),
  data: z.record(z.string(), z.unknown()).optional().describe("the event's details (table below)"),
});
export type LogRecord = z.infer<typeof LogRecord>;

/** What a caller adds to a message: everything but the time stamp. */
export type LogFields = Partial<Omit<LogRecord, "ts" | "msg">>;

import { z } from "zod";
import { Role } from "./catalog.ts";
import { Approval } from "./artifacts/completion.ts";
import { StateNote } from "./log.ts";
import { CheckWhen } from "./checks.ts";

/**
 * What the pure orchestrator asks the world to do. Interpreted in one place (app/interpret.ts);
 * results and failures come back as events. Paths are relative to the session folder.
 */
export const Effect = z.discriminatedUnion("type", [
  z.object({ type: z.literal("write_file"), path: z.string(), content: z.string() }),
  /** append a line unless the file already holds exactly that line (idempotent on replay) */
  z.object({ type: z.literal("append_file"), path: z.string(), content: z.string() }),
  z.object({ type: z.literal("delete_file"), path: z.string() }),
  /** delete files in a session folder whose names match a regex (e.g. stale done markers) */
  z.object({ type: z.literal("delete_matching"), dir: z.string(), pattern: z.string() }),
  /**
   * write `path` (once: an existing file is kept, so a replay never moves the baseline) with the
   * git blob id of each of `files` in the work directory as they are now (FileBaseline)
   */
  z.object({ type: z.literal("record_baseline"), path: z.string(), round: z.number().int().min(0), files: z.array(z.string()) }),
  /** render an assets/prompts template (session files inlined) and write it to `path` */
  z.object({
    type: z.literal("write_prompt"),
    path: z.string(),
    template: z.string(),
    /** the role the prompt is for (tool names and project extensions depend on it) */
    role: Role,
    vars: z.record(z.string(), z.string()).default({}),
    /** for `agent`: its CLI's tool names (a fallback provider's may differ from the role's) */
    agent: z.string().optional(),
    /** an earlier attempt at this prompt was interrupted: say so, with the changes made since the run's base */
    interrupted: z.boolean().optional(),
  }),
  /**
   * start a pane for `agent` running the provider configured for `role` (kills an old one first);
   * `provider` overrides it (a fallback); `conversation` continues that CLI conversation
   */
  z.object({
    type: z.literal("launch_agent"),
    agent: z.string(),
    role: Role,
    label: z.string(),
    batch_prompt: z.string().optional(),
    provider: z.string().optional(),
    conversation: z.string().optional(),
  }),
  /** deliver "Read and follow the instructions in <prompt>" to an agent's pane, verified */
  z.object({ type: z.literal("send_prompt"), agent: z.string(), prompt: z.string() }),
  /** deliver a one-line notice to an agent's pane */
  z.object({ type: z.literal("notify_agent"), agent: z.string(), text: z.string() }),
  /**
   * remind an agent whose turn ended without its submit: names the tool (in its CLI's spelling)
   * and the file; delivered after `delay_ms` unless the agent acted meanwhile
   */
  z.object({
    type: z.literal("nudge_agent"),
    agent: z.string(),
    tool: z.string().nullable(),
    file: z.string().nullable(),
    attempt: z.number().int().min(1),
    limit: z.number().int().min(0),
    refusal: z.string().optional(),
    /** nobody answers questions (headless, or a role that may not ask): tell it to decide and note assumptions */
    decide: z.boolean().default(false),
    delay_ms: z.number().int().min(0),
  }),
  /** dismiss the dialog an agent's CLI shows (its provider's keys for it) */
  z.object({ type: z.literal("dismiss_dialog"), agent: z.string() }),
  /** stop every agent's processes (SIGSTOP) or let them go on (SIGCONT): the budget pause */
  z.object({ type: z.literal("pause_agents"), pause: z.boolean() }),
  /** ask for a person's attention: bell, desktop notification (OSC 9/777), tmux message (with the agent's attach command) */
  z.object({ type: z.literal("attention"), text: z.string(), agent: z.string().optional() }),
  /** the content zone shows exactly these agents, in order (others are parked) */
  z.object({ type: z.literal("show_agents"), agents: z.array(z.string()) }),
  z.object({ type: z.literal("kill_agent"), agent: z.string() }),
  z.object({ type: z.literal("show_completion_panel") }),
  z.object({ type: z.literal("close_completion_panel") }),
  /** stage, commit, push and open a PR per the approval → `committed` | `commit_failed` */
  z.object({ type: z.literal("commit"), approval: Approval, suggested_message: z.string().optional() }),
  /**
   * run these checks (in order, each its own bounded process) in the run's working tree, batch
   * `run` (state.checks); each one reports check_started and check_finished. A required check
   * that fails is compared with the run's base commit before it is reported (pre_existing)
   */
  z.object({ type: z.literal("run_checks"), run: z.number().int().min(1), when: CheckWhen, round: z.number().int().min(0), names: z.array(z.string()).min(1) }),
  /** the orchestrator's bookkeeping after a verified submit_done: tick these tasks in tasks_<N>.md */
  z.object({ type: z.literal("check_off_tasks"), plan_index: z.number().int().min(1), tasks: z.array(z.string()) }),
  /** a note for the orchestrator's log: `note` says what it is about (schema/log.ts STATE_NOTES), `data` its details */
  z.object({
    type: z.literal("log"),
    message: z.string(),
    agent: z.string().optional(),
    note: StateNote.optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  /** end the run: exit code, and whether to delete the session folder */
  z.object({ type: z.literal("finish"), code: z.number().int(), cleanup: z.boolean() }),
]);
export type Effect = z.infer<typeof Effect>;

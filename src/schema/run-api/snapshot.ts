import { z } from "zod";
import { Phase, Role, WorkflowEvent } from "../catalog.ts";
import { AgentLimit, AgentQuestion, AgentStatus, ReviewLoopCap, ReviewResult } from "../state.ts";
import { TopicStatus } from "../topic-tasks.ts";
import { UsageFigures } from "./usage.ts";
import { ChecksSnapshot } from "./checks.ts";

/**
 * A run's snapshot: everything `agentmux status --json` prints, and what a dashboard shows.
 * Fields are only added, never renamed or retyped (test/report/contract.test.ts).
 */

/** A stopped session's agents read `stopped`, whatever state.json last said. */
export const SnapshotAgentStatus = z.union([AgentStatus, z.literal("stopped")]);
export type SnapshotAgentStatus = z.infer<typeof SnapshotAgentStatus>;

export const AgentSnapshot = z.object({
  key: z.string(),
  label: z.string(),
  role: Role,
  provider: z.string().nullable(),
  model: z.string().nullable(),
  status: SnapshotAgentStatus,
  /** its tmux pane id while the run is live */
  pane: z.string().nullable(),
  note: z.string().nullable(),
  question: AgentQuestion.nullable(),
  limit: AgentLimit.nullable(),
  idle_turns: z.number().int(),
  restarts: z.number().int(),
  exit_status: z.string().nullable(),
  last_screen: z.array(z.string()).nullable(),
  conversation_id: z.string().nullable(),
  /** what a person should know about it, in one line (its question, the limit it waits out, why it is stuck) */
  detail: z.string().nullable(),
  usage: UsageFigures.nullable(),
  /** its task (plan index, research topic), when it has one */
  task: z.string().nullable(),
  /** when it entered its status */
  since: z.string(),
  /** providers it moved away from after usage limits */
  fallen_from: z.array(z.string()),
  /** its last known status: `status`, but also once nobody runs the session (where `status` says stopped) (v4) */
  last_status: AgentStatus,
});
export type AgentSnapshot = z.infer<typeof AgentSnapshot>;

export const TimelineEntry = z.object({
  phase: Phase,
  event: WorkflowEvent,
  at: z.string(),
  /** to the next entry, or to now / to when the run stopped */
  duration_ms: z.number().nullable(),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;

/** A stage of the pipeline this run goes through (optional stages only when the run uses them). */
export const StageSnapshot = z.object({
  phase: Phase,
  state: z.enum(["done", "current", "failed", "pending"]),
  /** time spent in it so far (every visit added up) */
  duration_ms: z.number(),
});
export type StageSnapshot = z.infer<typeof StageSnapshot>;

/** What the run waits for: the user, an agent's question, a usage limit's reset, the budget. */
export const Waiting = z.discriminatedUnion("kind", [
  /** the approval: write `approval` to commit, or `changes` to send the run back to planning */
  z.object({ kind: z.literal("decision"), approval: z.string(), changes: z.string() }),
  z.object({ kind: z.literal("agent_input"), agent: z.string(), question: AgentQuestion.nullable() }),
  z.object({ kind: z.literal("usage_limit"), agent: z.string(), limit: AgentLimit.nullable() }),
  z.object({ kind: z.literal("stuck_agent"), agent: z.string(), note: z.string().nullable() }),
  /** agents paused at the budget: `go_on` (a file) lets it go on */
  z.object({ kind: z.literal("budget"), text: z.string(), go_on: z.string() }),
]);
export type Waiting = z.infer<typeof Waiting>;

/** A file the run created that a person reads (requirements, research, plans, design, reviews, completion). */
export const FileEntry = z.object({
  /** relative to the session folder */
  path: z.string(),
  at: z.string(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const RunSnapshot = z.object({
  id: z.string(),
  dir: z.string(),
  live: z.boolean(),
  feature: z.string(),
  phase: Phase,
  last_event: WorkflowEvent,
  last_event_label: z.string(),
  created_at: z.string().nullable(),
  updated_at: z.string(),
  /** wall time since the run was created: to now while it runs, to when it stopped once it stopped */
  elapsed_ms: z.number().nullable(),
  /** active time (every orchestrator lifetime, not the idle time between a cancel and a resume) */
  active_ms: z.number().nullable(),
  stopped_at: z.string().nullable(),
  branch: z.string().nullable(),
  worktree_path: z.string().nullable(),
  /** the worktree folder was removed (at the commit): worktree_path is where it was */
  worktree_removed: z.boolean(),
  review_iteration: z.number().int(),
  tool_events: z.number().int(),
  timeline: z.array(TimelineEntry),
  /** the agents the run has not finished with (a finished run lists none) */
  agents: z.array(AgentSnapshot),
  usage: UsageFigures.nullable(),
  usage_by_agent: z.record(z.string(), UsageFigures),
  budget_reached: z.string().nullable(),
  tmux: z
    .object({
      session: z.string(),
      socket: z.string().nullable(),
      /** the pane of the run's monitor (v3) */
      control_pane: z.string().nullable(),
    })
    .nullable(),
  groups: z.object({
    total: z.number().int(),
    index: z.number().int(),
    mode: z.enum(["serial", "parallel"]).nullable(),
    active_plan_ids: z.array(z.string()),
    completed_group_ids: z.array(z.string()),
  }),
  reviews: z.record(z.string(), ReviewResult),
  research: z.object({ code: z.record(z.string(), TopicStatus), web: z.record(z.string(), TopicStatus) }),
  interruption: z.object({ category: z.enum(["canceled", "failed"]), cause: z.string().nullable(), log_path: z.string().nullable() }).nullable(),
  resume_command: z.string().nullable(),
  commit_hash: z.string().nullable(),
  pr_url: z.string().nullable(),
  /** what the end of the run noted: why there is no pull request, where the checkout is */
  notes: z.array(z.string()),
  // ── run API v1 additions (status --json had none of these before) ──
  api_version: z.number().int().min(1),
  /** the stages of the pipeline with their state and time spent */
  stages: z.array(StageSnapshot),
  /** the review round whose verdicts `reviews` holds (while fixing: the round that failed) */
  review_round: z.number().int(),
  review_loop_cap: ReviewLoopCap.nullable(),
  /** agents that finished their work */
  done_agents: z.array(AgentSnapshot),
  /** what the run waits for; empty while it works on its own */
  waiting_for: z.array(Waiting),
  /** how many times the run started waiting for the decision (null: an older session that did not count) */
  decision_waits: z.number().int().nullable(),
  awaiting_decision: z.boolean(),
  base_commit: z.string().nullable(),
  headless: z.boolean(),
  /** the project's checks the run ran, by round (docs/checks.md) */
  checks: ChecksSnapshot,
  // ── run API v3 additions (the monitor reads the snapshot) ──
  /** the run's tmux session name as state.json keeps it */
  session_name: z.string(),
  /** how many subplans the plan has (0 before planning) */
  subplan_count: z.number().int(),
  /** the files the run created that a person reads, oldest first (the last 64 KB of created_files.log) */
  files: z.array(FileEntry),
});
export type RunSnapshot = z.infer<typeof RunSnapshot>;

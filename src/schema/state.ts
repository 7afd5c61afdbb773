import { z } from "zod";
import { UsageRecord } from "./usage.ts";
import { Phase, ReviewerRole, Role, WorkflowEvent } from "./catalog.ts";
import { Approval } from "./artifacts/completion.ts";
import { Effect } from "./effects.ts";
import { TopicTasks } from "./topic-tasks.ts";
import { CheckRun } from "./check-runs.ts";

/**
 * `idle_without_submit`: its turn ended without the submit its prompt requires (nudged);
 * `needs_input`: it asks the user (a question, a question or permission dialog);
 * `rate_limited`: its CLI shows a usage or rate limit (waiting for the reset, or moving to a fallback).
 */
export const AgentStatus = z.enum(["starting", "working", "idle", "idle_without_submit", "needs_input", "rate_limited", "stuck", "exited", "done"]);
export type AgentStatus = z.infer<typeof AgentStatus>;

/** The prompt an agent works on: re-rendered and re-sent when it is restarted or moved to a fallback. */
export const AgentPrompt = z.object({ path: z.string(), template: z.string(), vars: z.record(z.string(), z.string()).default({}) });
export type AgentPrompt = z.infer<typeof AgentPrompt>;

/** What an agent asks: a question at the end of its turn, or a dialog of its CLI. */
export const AgentQuestion = z.object({ kind: z.enum(["question", "dialog", "permission"]), text: z.string(), at: z.string() });
export type AgentQuestion = z.infer<typeof AgentQuestion>;

/** A usage or rate limit its CLI showed. */
export const AgentLimit = z.object({
  text: z.string(),
  /** when the CLI said the limit resets (null: not shown; agentmux retries after watchdog.limit_retry_s) */
  reset_at: z.string().nullable(),
  at: z.string(),
});
export type AgentLimit = z.infer<typeof AgentLimit>;

/** One agent (a role, optionally a task such as a plan index or research topic) the run has started. */
export const AgentInfo = z.object({
  role: Role,
  task: z.string().optional(),
  label: z.string(),
  status: AgentStatus,
  provider: z.string().optional(),
  model: z.string().nullable().optional(),
  since: z.string(),
  note: z.string().optional(),
  /** the prompt it was last given (see AgentPrompt) */
  prompt: AgentPrompt.optional(),
  /** turns that ended without the required submit since its last prompt (each one nudged, up to watchdog.nudges) */
  idle_turns: z.number().int().min(0).optional(),
  /** the last refusal of its submit tool (a refused submit is work, not a turn end) */
  refusal: z.string().optional(),
  question: AgentQuestion.optional(),
  limit: AgentLimit.optional(),
  /** providers tried before this one after usage limits (fallbacks) */
  fallen_from: z.array(z.string()).optional(),
  /** times its pane was restarted after exiting unexpectedly */
  restarts: z.number().int().min(0).optional(),
  /** exit status of its last pane that exited ("" when tmux did not report one) */
  exit_status: z.string().optional(),
  /** the last lines its pane showed when it exited */
  last_screen: z.array(z.string()).optional(),
  /** its CLI's own conversation id (continued on a restart, a resume or the next serial plan) */
  conversation_id: z.string().optional(),
  /** relaunched after an interruption: its next prompt says so and lists what changed since */
  interrupted: z.boolean().optional(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

/** The agent has a pane the run still counts on: it has not finished or exited. */
export const agentLive = (a: Pick<AgentInfo, "status"> | undefined): boolean => !!a && a.status !== "done" && a.status !== "exited";

export const HistoryEntry = z.object({
  phase: Phase,
  event: WorkflowEvent,
  at: z.string(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** A finding of a failing review, kept short in state (the whole review is in its Markdown archive). */
export const OpenFinding = z.object({
  severity: z.string().optional(),
  location: z.string().optional(),
  issue: z.string(),
});
export type OpenFinding = z.infer<typeof OpenFinding>;

/**
 * A line comment the run keeps (state.review_comments): a reviewer's (review YAML `comments`),
 * with the id prompts and completion artifacts use.
 * `round` is the review round that made it (1 = the first review), which is also the fix round
 * it goes to when its review fails.
 */
export const ReviewComment = z.object({
  id: z.string(),
  /** the reviewer role */
  reviewer: z.string(),
  round: z.number().int().min(0),
  /** its review failed: the fixer must deal with it (a passing review's comments are suggestions) */
  blocking: z.boolean(),
  file: z.string(),
  start_line: z.number().int().min(1),
  end_line: z.number().int().min(1),
  severity: z.string(),
  body: z.string(),
  suggestion: z.string().optional(),
  /** the fix round whose fixer addressed it (its completion artifact said so and the file changed) */
  addressed_in: z.number().int().min(1).optional(),
});
export type ReviewComment = z.infer<typeof ReviewComment>;

/** The line comments a fix round works on (and its follow-up review checks): those of the review round before it. */
export const roundComments = (state: { review_comments?: ReviewComment[]; review_iteration: number }): ReviewComment[] =>
  (state.review_comments ?? []).filter((c) => c.round === state.review_iteration);

export const ReviewResult = z.object({
  verdict: z.enum(["pass", "fail"]),
  summary: z.string(),
  counts: z.record(z.string(), z.number()).optional(),
  commit_message: z.string().optional(),
  /** the review rendered as Markdown (aggregated into fix_request.md and review.md); at most 64 KB, the rest in `file` */
  text: z.string().optional(),
  /** the review's archive (07_review/review_<iteration>_<role>.md), which holds it in full */
  file: z.string().optional(),
  /** a failing review's findings */
  findings: z.array(OpenFinding).optional(),
});
export type ReviewResult = z.infer<typeof ReviewResult>;

/**
 * The review loop stopped at `defaults.max_review_iterations` with failing reviews, and what
 * the run did about it: `ask` (the approval panel shows the findings), `commit`
 * (`defaults.completion.commit_on_loop_cap`), or `fail` (nobody approves: the run fails).
 */
export const ReviewLoopCap = z.object({
  iterations: z.number().int().min(0),
  decision: z.enum(["ask", "commit", "fail"]),
  open_findings: z.array(OpenFinding.extend({ reviewer: z.string() })),
  /** required checks still failing at the cap (not pre-existing) */
  failing_checks: z.array(z.string()).optional(),
});
export type ReviewLoopCap = z.infer<typeof ReviewLoopCap>;

/**
 * `state.json`: every required field of seeds/session-state-artifacts.txt, plus optional fields
 * agentmux keeps current. Written only by the orchestrator, always atomically.
 */
export const ExecutionGroup = z.object({
  group_id: z.string(),
  mode: z.enum(["serial", "parallel"]),
  plans: z.array(z.object({ index: z.number().int().min(1), name: z.string(), allow_partial: z.boolean().optional() })),
});
export type ExecutionGroup = z.infer<typeof ExecutionGroup>;

export const State = z.object({
  phase: Phase,
  last_event: WorkflowEvent,
  product_manager: z.boolean(),
  subplan_count: z.number().int().min(0),
  completed_subplans: z.array(z.string()),
  review_iteration: z.number().int().min(0),
  implementation_group_total: z.number().int().min(0),
  implementation_group_index: z.number().int().min(0),
  implementation_group_mode: z.enum(["serial", "parallel"]).nullable(),
  implementation_active_plan_ids: z.array(z.string()),
  implementation_completed_group_ids: z.array(z.string()),
  updated_at: z.string(),
  updated_by: z.string(),
  feature_dir: z.string(),
  session_name: z.string(),
  // optional seed fields
  gh_available: z.boolean().optional(),
  issue_number: z.number().int().optional(),
  /** topic → "dispatched" | "done", in the order topics were dispatched */
  research_tasks: TopicTasks.optional(),
  web_research_tasks: TopicTasks.optional(),
  awaiting_summary: z.boolean().optional(),
  // agentmux extras
  schema_version: z.literal(1).default(1),
  feature_name: z.string().optional(),
  request_title: z.string().optional(),
  issue_title: z.string().optional(),
  project_dir: z.string().optional(),
  /** the extra config layer given with --config at start (reused on resume) */
  config_path: z.string().optional(),
  /** --keep-session: keep the session folder after a successful commit */
  keep_session: z.boolean().optional(),
  /** started headless (--ci, CI=true or no TTY): final approval is skipped */
  headless: z.boolean().optional(),
  created_at: z.string().optional(),
  feature_branch: z.string().optional(),
  base_commit: z.string().optional(),
  worktree_path: z.string().optional(),
  /** AGENTMUX_PORT_OFFSET of this run (10, 20, …: unique among the repository's live runs) */
  port_offset: z.number().int().min(0).optional(),
  /** in-place runs: the branch (or detached commit) the checkout was on at start; restored after the commit */
  start_ref: z.object({ branch: z.string().nullable(), commit: z.string().nullable() }).optional(),
  main_repo_dir: z.string().optional(),
  implementation_single_coder: z.boolean().optional(),
  /** the plan's groups, copied from plan.yaml when it is accepted (transitions cannot read files) */
  execution_groups: z.array(ExecutionGroup).optional(),
  needs_design: z.boolean().optional(),
  /** true between a change request and the next accepted plan */
  replanning: z.boolean().optional(),
  reviewer_nominations: z.array(ReviewerRole).optional(),
  active_reviews: z.record(z.string(), z.enum(["pending", "completed", "killed"])).optional(),
  review_results: z.record(z.string(), ReviewResult).optional(),
  review_loop_cap: ReviewLoopCap.optional(),
  /** token usage and estimated cost per CLI conversation (by its id), read from the CLIs' own records */
  usage: z.record(z.string(), UsageRecord).optional(),
  /** the run reached limits.max_cost_usd or max_tokens: what it had used then */
  budget_reached: z.object({ at: z.string(), text: z.string(), paused: z.boolean().optional() }).optional(),
  /** every line comment of every review round, in the order they came */
  review_comments: z.array(ReviewComment).optional(),
  agents: z.record(z.string(), AgentInfo).optional(),
  /** the batches of the project's checks this run started, in order (see schema/check-runs.ts) */
  checks: z.array(CheckRun).optional(),
  /** checks_order before_reviewers: the round's reviewers start once its checks are settled and none blocks */
  review_waits_for_checks: z.boolean().optional(),
  /** batches started so far (ids are never reused, even after a change request cleared `checks`) */
  check_runs_started: z.number().int().min(0).optional(),
  history: z.array(HistoryEntry).optional(),
  /** byte offset in tool_events.jsonl up to which events are applied (authoritative copy) */
  tool_cursor: z.number().int().min(0).optional(),
  /** `seq` of the last sealed tool line applied: a rescan (log truncated or replaced) skips up to it */
  tool_seq: z.number().int().min(0).optional(),
  /**
   * effects of the last transition not yet known to be done (write-ahead outbox): persisted with
   * the new state, cleared once interpreted, re-run on restart — all effects are idempotent
   */
  outbox: z.array(Effect).optional(),
  applied_tool_events: z.number().int().min(0).optional(),
  /** completing waits for the user's decision (the approval panel, or a decision file when headless) */
  awaiting_decision: z.boolean().optional(),
  /** how many times the run started waiting for a decision: a follower that polls state sees every wait, even one decided within a poll */
  decision_waits: z.number().int().min(0).optional(),
  /** set when approval.json was accepted; later decisions are ignored */
  approved_at: z.string().optional(),
  /** the accepted approval.json (re-used to retry the commit after a restart) */
  approval: Approval.optional(),
  commit_hash: z.string().optional(),
  /** the branch's pull request: the one the run opened, or the one a review round continues (set at start) */
  pr_url: z.string().nullable().optional(),
  /** what the completion skipped or could not do (no push, no PR, checkout not restored), with why */
  completion_notes: z.array(z.string()).optional(),
  completion_error: z.string().optional(),
  cleanup_feature_dir: z.boolean().optional(),
  /** run time of earlier orchestrator lifetimes (resume), ms: run limits count across resumes */
  active_ms: z.number().min(0).optional(),
  /** when the current orchestrator lifetime began */
  active_since: z.string().optional(),
  interruption_category: z.enum(["canceled", "failed"]).optional(),
  interruption_cause: z.string().optional(),
  interruption_resume_command: z.string().optional(),
  interruption_log_path: z.string().nullable().optional(),
});
export type State = z.infer<typeof State>;

/** What the orchestrator reports to its launcher when it exits (one JSON line on the result pipe). */
export const FinalReport = z.object({ code: z.number().int(), state: State });
export type FinalReport = z.infer<typeof FinalReport>;

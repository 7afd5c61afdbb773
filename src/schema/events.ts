import { z } from "zod";
import { ReviewerRole } from "./catalog.ts";
import { UsageRecord } from "./usage.ts";
import { Plan } from "./artifacts/plan.ts";
import { Review } from "./artifacts/review.ts";
import { DoneArtifact } from "./artifacts/done.ts";
import { Approval } from "./artifacts/completion.ts";
import { CheckOutcome } from "./check-runs.ts";
import { ResearchRequest, ResearchType, TopicSlug } from "./artifacts/research.ts";

const at = z.string();

/**
 * Everything that can move the workflow enters the pure transition function as one of these.
 * The impure side turns outside signals (tool_events.jsonl lines, session files, pane exits,
 * effect results) into events, reading and validating any artifact they refer to, so
 * transitions never touch the disk.
 */
export const Event = z.discriminatedUnion("type", [
  /** first entry of a new run */
  z.object({ type: z.literal("start"), at }),
  /** re-entry after the orchestrator restarted (resume, crash) */
  z.object({ type: z.literal("resume"), at }),

  // — MCP tool signals (tool_events.jsonl), with the artifacts they vouch for —
  z.object({ type: z.literal("pm_done"), at }),
  z.object({ type: z.literal("architecture_submitted"), at, reviewers: z.array(ReviewerRole).optional() }),
  z.object({ type: z.literal("plan_submitted"), at, plan: Plan }),
  z.object({ type: z.literal("review_submitted"), at, role: ReviewerRole, review: Review }),
  z.object({ type: z.literal("coder_done"), at, subplan_index: z.number().int().min(1), artifact: DoneArtifact.optional() }),
  ResearchRequest.extend({ type: z.literal("research_dispatched"), at, research_type: ResearchType }),
  z.object({ type: z.literal("research_done"), at, research_type: ResearchType, topic: TopicSlug }),
  /** a tool line that could not be turned into an event (bad JSON, unreadable artifact) */
  z.object({ type: z.literal("tool_rejected"), at, tool: z.string(), reason: z.string() }),

  // — session files —
  z.object({ type: z.literal("design_written"), at }),
  z.object({ type: z.literal("summary_written"), at }),
  z.object({ type: z.literal("approval_written"), at, approval: Approval }),
  z.object({ type: z.literal("changes_written"), at, text: z.string() }),
  /** the user asked to see the approval panel again (monitor `a`, `agentmux attach`, the home screen) */
  z.object({ type: z.literal("panel_requested"), at }),

  // — runtime —
  /** an agent pane exited without agentmux closing it: its exit status and last screen lines */
  z.object({
    type: z.literal("pane_exited"),
    at,
    agent: z.string(),
    detail: z.string().optional(),
    exit_status: z.string().optional(),
    screen: z.array(z.string()).optional(),
  }),
  z.object({ type: z.literal("agent_stuck"), at, agent: z.string(), reason: z.string() }),
  /** a prompt was accepted, or the agent went busy */
  z.object({ type: z.literal("agent_active"), at, agent: z.string() }),
  /** the agent went back to its idle prompt after working (settled); `question`: its last line asks one */
  z.object({
    type: z.literal("agent_turn_ended"),
    at,
    agent: z.string(),
    question: z.string().optional(),
    /**
     * the file the agent owes (one finished by a file alone: summary.md, design.md) is on disk,
     * not empty: its own event comes once it has stayed unchanged; no reminder meanwhile
     */
    owed_file_written: z.boolean().optional(),
  }),
  /** the agent's CLI shows a question or permission dialog */
  z.object({ type: z.literal("agent_dialog"), at, agent: z.string(), kind: z.enum(["question", "permission"]), text: z.string() }),
  /** the agent's CLI shows a usage or rate limit; reset_at when it said when */
  z.object({ type: z.literal("agent_rate_limited"), at, agent: z.string(), text: z.string(), reset_at: z.string().nullable() }),
  /** a rate-limited agent's reset time (or the retry interval) has passed */
  z.object({ type: z.literal("limit_reset"), at, agent: z.string() }),
  /** the agent called an agentmux tool; a refused call carries the refusal */
  z.object({ type: z.literal("agent_tool_call"), at, agent: z.string(), tool: z.string(), ok: z.boolean(), message: z.string().optional() }),
  /** token figures of an agent's CLI conversation, read from the CLI's own records (transcript, rollout) */
  z.object({ type: z.literal("usage_read"), at, conversation: z.string(), record: UsageRecord }),
  /** the user lets a run paused at its budget go on (monitor `g`) */
  z.object({ type: z.literal("budget_go_on"), at }),
  /** the user answered an agent's question away from its pane (the web page); `question_at` names the question */
  z.object({ type: z.literal("agent_answer"), at, agent: z.string(), question_at: z.string(), text: z.string() }),
  /** the agent's CLI conversation id, captured from its own session files */
  z.object({ type: z.literal("conversation_captured"), at, agent: z.string(), id: z.string() }),
  z.object({ type: z.literal("cancel"), at, reason: z.string() }),
  z.object({ type: z.literal("timeout"), at, reason: z.string() }),
  z.object({ type: z.literal("effect_failed"), at, effect: z.string(), error: z.string() }),
  /** the run lost what it cannot go on without: its tmux session or server, or its session folder */
  z.object({ type: z.literal("run_lost"), at, reason: z.string() }),

  // — the project's checks (a run_checks effect's batch `run`) —
  z.object({ type: z.literal("check_started"), at, run: z.number().int().min(1), name: z.string() }),
  z.object({ type: z.literal("check_finished"), at, run: z.number().int().min(1), name: z.string(), result: CheckOutcome }),

  // — completion results —
  z.object({
    type: z.literal("committed"),
    at,
    hash: z.string(),
    branch: z.string(),
    pr_url: z.string().nullable(),
    /** skipped steps and what went wrong after the commit (push, PR, checkout), each with why */
    notes: z.array(z.string()).optional(),
  }),
  z.object({ type: z.literal("commit_failed"), at, error: z.string() }),
]);
export type Event = z.infer<typeof Event>;
export type EventOf<T extends Event["type"]> = Extract<Event, { type: T }>;

import { z } from "zod";
import { Phase, WorkflowEvent } from "../catalog.ts";
import { AgentLimit, AgentQuestion } from "../state.ts";
import { SnapshotAgentStatus } from "./snapshot.ts";
import { CheckStatus } from "../checks.ts";

/**
 * A run's progress events: the `--ci --json` lines before the result, and what a live view
 * shows as it happens. `events(prev, next)` (report/events.ts) derives them from two snapshots; the
 * launcher adds `notice`. `agent` is the agent's key in the snapshot. Fields and kinds are
 * only added (test/report/contract.test.ts).
 */
const ev = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) => z.object({ kind: z.literal(kind), ...shape });

/** The run entered a phase (one per timeline entry). */
export const PhaseEvent = ev("phase", { phase: Phase, event: WorkflowEvent, at: z.string() });
/** An agent appeared or its status changed. */
export const AgentStatusEvent = ev("agent_status", {
  agent: z.string(),
  label: z.string(),
  status: SnapshotAgentStatus,
  from: SnapshotAgentStatus.nullable(),
  at: z.string(),
});
export const AgentRestartedEvent = ev("agent_restarted", {
  agent: z.string(),
  restarts: z.number().int(),
  exit_status: z.string().nullable(),
  last_line: z.string().nullable(),
  at: z.string(),
});
export const AgentFallbackEvent = ev("agent_fallback", { agent: z.string(), from: z.string(), to: z.string(), limit: z.string().nullable(), at: z.string() });
export const AgentQuestionAnsweredEvent = ev("agent_question_answered", {
  agent: z.string(),
  question: AgentQuestion,
  answer: z.string().nullable(),
  at: z.string(),
});
export const AgentStuckEvent = ev("agent_stuck", { agent: z.string(), note: z.string(), at: z.string() });
export const AgentNeedsInputEvent = ev("agent_needs_input", { agent: z.string(), question: AgentQuestion.nullable(), at: z.string() });
export const AgentRateLimitedEvent = ev("agent_rate_limited", { agent: z.string(), limit: AgentLimit.nullable(), at: z.string() });
export const AgentRemindedEvent = ev("agent_reminded", { agent: z.string(), reminders: z.number().int(), at: z.string() });
/** A reviewer's verdict of a review round. */
export const ReviewVerdictEvent = ev("review_verdict", {
  reviewer: z.string(),
  verdict: z.enum(["pass", "fail"]),
  summary: z.string(),
  round: z.number().int(),
  at: z.string(),
});
/** A project check finished (one per check per batch); `blocking`: required, failing, not pre-existing. */
export const CheckEvent = ev("check", {
  name: z.string(),
  round: z.number().int(),
  run: z.number().int(),
  status: CheckStatus,
  required: z.boolean(),
  pre_existing: z.boolean(),
  blocking: z.boolean(),
  duration_ms: z.number(),
  failures: z.number().int(),
  log: z.string(),
  at: z.string(),
});
/** The run waits for the user's decision: write `approval` or `changes` (headless: nobody sees a panel). */
export const AwaitingDecisionEvent = ev("awaiting_decision", { approval: z.string(), changes: z.string(), at: z.string() });
/** The run reached its budget (limits); `paused`: its agents wait until the user lets it go on. */
export const BudgetReachedEvent = ev("budget_reached", { text: z.string(), paused: z.boolean(), at: z.string() });
export const CommittedEvent = ev("committed", { commit: z.string(), branch: z.string().nullable(), at: z.string() });
export const PullRequestEvent = ev("pull_request", { url: z.string(), at: z.string() });
/** The run failed or was canceled; `resume_command` resumes it. */
export const InterruptedEvent = ev("interrupted", {
  category: z.enum(["canceled", "failed"]),
  cause: z.string().nullable(),
  resume_command: z.string().nullable(),
  at: z.string(),
});
/** Something the launcher says (as the plain output's `agentmux: …` lines). */
export const NoticeEvent = ev("notice", { message: z.string() });

export const RunEvent = z.discriminatedUnion("kind", [
  PhaseEvent,
  AgentStatusEvent,
  AgentRestartedEvent,
  AgentFallbackEvent,
  AgentQuestionAnsweredEvent,
  AgentStuckEvent,
  AgentNeedsInputEvent,
  AgentRateLimitedEvent,
  AgentRemindedEvent,
  ReviewVerdictEvent,
  CheckEvent,
  AwaitingDecisionEvent,
  BudgetReachedEvent,
  CommittedEvent,
  PullRequestEvent,
  InterruptedEvent,
  NoticeEvent,
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventKind = RunEvent["kind"];

import { join } from "node:path";
import { eventLabel, phaseEnded, type Phase } from "../schema/catalog.ts";
import { activeMs } from "../schema/active-time.ts";
import type { AgentInfo, State } from "../schema/state.ts";
import type { RuntimeState } from "../schema/runtime.ts";
import { F } from "../protocol/paths.ts";
import { agentNote, agentRows, type AgentRow } from "./agents.ts";
import { failedAt, stagesOf, titleOf } from "./pipeline.ts";
import { resumeCommand } from "./resume.ts";
import { reviewRound } from "./review-round.ts";
import type { AgentSnapshot, RunSnapshot, StageSnapshot, TimelineEntry, Waiting } from "../schema/run-api/snapshot.ts";
import { usageByAgent, usageFigures, usageTotal } from "./usage.ts";
import { RUN_API_VERSION } from "../schema/run-api/version.ts";
import { checksSnapshot } from "./checks.ts";
import { filesOf } from "./files.ts";
import type { CreatedFile } from "../session/data.ts";

/**
 * What a snapshot is made of: the session's files (read.ts reads them) and what only the
 * reader knows. `live`: an orchestrator runs it now; `toolEvents`: its tool calls so far;
 * `lastSeen`: the orchestrator's last sign of life, ms (when a stopped run stopped);
 * `worktreeGone`: its worktree folder is no longer there (removed at the commit);
 * `created`: created_files.log's entries (none: the snapshot lists no files).
 */
export type SnapshotInput = {
  dir: string;
  state: State;
  runtime?: RuntimeState;
  id: string;
  live: boolean;
  toolEvents: number;
  now: number;
  lastSeen?: number;
  worktreeGone?: boolean;
  created?: CreatedFile[];
};

const ms = (iso: string | undefined): number | undefined => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? undefined : t;
};

/**
 * When the run stopped: undefined while it runs. A finished run ended at its last state write; a
 * run nobody runs any more (its orchestrator died, the machine rebooted) at its last sign of life.
 */
function stoppedAt(d: SnapshotInput): number | undefined {
  const finished = phaseEnded(d.state.phase);
  if (d.live && !finished) return undefined;
  const wrote = ms(d.state.updated_at) ?? d.now;
  return finished ? wrote : Math.max(wrote, d.lastSeen ?? 0);
}

function timelineOf(s: State, end: number): TimelineEntry[] {
  const hist = s.history ?? [];
  return hist.map((h, i) => {
    const at = ms(h.at);
    const next = i + 1 < hist.length ? ms(hist[i + 1]!.at) : end;
    return { phase: h.phase, event: h.event, at: h.at, duration_ms: at === undefined || next === undefined ? null : Math.max(0, next - at) };
  });
}

/** The pipeline's stages: done, current (or where it failed), pending, with the time spent in each. */
function stagesNow(s: State, timeline: TimelineEntry[]): StageSnapshot[] {
  const stages: Phase[] = stagesOf(s).filter((st) => st !== "done");
  const failed = s.phase === "failed";
  const cur = stages.indexOf((failed ? failedAt(s) : s.phase) ?? "architecting");
  const spent = (phase: string) => timeline.filter((t) => t.phase === phase).reduce((n, t) => n + (t.duration_ms ?? 0), 0);
  return stages.map((phase, i) => ({
    phase,
    state: s.phase === "done" || i < cur ? "done" : i === cur ? (failed ? "failed" : "current") : "pending",
    duration_ms: spent(phase),
  }));
}

function agentOf(r: AgentRow, d: SnapshotInput, usage: ReturnType<typeof usageByAgent>): AgentSnapshot {
  const a: AgentInfo = r.info;
  const u = usage[r.key];
  return {
    key: r.key,
    label: a.label,
    role: a.role,
    provider: a.provider ?? null,
    model: a.model ?? null,
    // a stopped session's agents are not working, whatever state.json last said
    status: d.live || r.status === "exited" || r.status === "done" ? r.status : "stopped",
    pane: d.live ? (r.pane ?? null) : null,
    note: a.note ?? null,
    question: a.question ?? null,
    limit: a.limit ?? null,
    idle_turns: a.idle_turns ?? 0,
    restarts: a.restarts ?? 0,
    exit_status: a.exit_status ?? null,
    last_screen: a.last_screen ?? null,
    conversation_id: a.conversation_id ?? null,
    detail: agentNote(a, r.status) || null,
    usage: u ? usageFigures(u) : null,
    task: a.task ?? null,
    since: a.since,
    fallen_from: a.fallen_from ?? [],
    last_status: r.status,
  };
}

/** What the run waits for: the user's decision, an agent's question, a limit's reset, a stuck agent, the budget. */
function waitingFor(s: State, dir: string, agents: AgentSnapshot[]): Waiting[] {
  if (phaseEnded(s.phase)) return [];
  const out: Waiting[] = [];
  if (s.phase === "completing" && s.awaiting_decision) out.push({ kind: "decision", approval: join(dir, F.approval), changes: join(dir, F.changes) });
  if (s.budget_reached?.paused) out.push({ kind: "budget", text: s.budget_reached.text, go_on: join(dir, F.budgetGoOn) });
  for (const a of agents) {
    if (a.status === "needs_input") out.push({ kind: "agent_input", agent: a.key, question: a.question });
    else if (a.status === "rate_limited") out.push({ kind: "usage_limit", agent: a.key, limit: a.limit });
    else if (a.status === "stuck") out.push({ kind: "stuck_agent", agent: a.key, note: a.note });
  }
  return out;
}

/** A run's snapshot (the run API, schema/run-api/snapshot.ts): `agentmux status --json`, the live views. Pure. */
export function snapshot(d: SnapshotInput): RunSnapshot {
  const s = d.state;
  const byAgent = usageByAgent(s);
  const total = usageTotal(s);
  const stopped = stoppedAt(d);
  const end = stopped ?? d.now;
  const started = ms(s.created_at) ?? ms(s.history?.[0]?.at);
  const timeline = timelineOf(s, end);
  const agents = agentRows(s, d.runtime).map((r) => agentOf(r, d, byAgent));
  const done = Object.entries(s.agents ?? {})
    .filter(([, a]) => a.status === "done")
    .map(([key, info]) => agentOf({ key, info, status: "done", pane: d.runtime?.panes[key] }, d, byAgent));
  return {
    id: d.id,
    dir: d.dir,
    live: d.live,
    feature: titleOf(s),
    phase: s.phase,
    last_event: s.last_event,
    last_event_label: eventLabel(s.last_event),
    created_at: s.created_at ?? null,
    updated_at: s.updated_at,
    elapsed_ms: started === undefined ? null : Math.max(0, end - started),
    active_ms: started === undefined && !s.active_since ? null : activeMs(s, end),
    stopped_at: stopped === undefined ? null : new Date(stopped).toISOString(),
    branch: s.feature_branch ?? null,
    worktree_path: s.worktree_path ?? null,
    worktree_removed: Boolean(s.worktree_path && d.worktreeGone),
    review_iteration: s.review_iteration,
    tool_events: d.toolEvents,
    timeline,
    agents,
    usage: total ? usageFigures(total) : null,
    // a finished run lists no agents, but their usage stays
    usage_by_agent: Object.fromEntries(Object.entries(byAgent).map(([k, u]) => [k, usageFigures(u)])),
    budget_reached: s.budget_reached?.text ?? null,
    tmux: d.runtime ? { session: d.runtime.tmux_session, socket: d.runtime.tmux_socket ?? null, control_pane: d.runtime.control_pane ?? null } : null,
    groups: {
      total: s.implementation_group_total,
      index: s.implementation_group_index,
      mode: s.implementation_group_mode,
      active_plan_ids: s.implementation_active_plan_ids,
      completed_group_ids: s.implementation_completed_group_ids,
    },
    reviews: s.review_results ?? {},
    research: { code: s.research_tasks ?? {}, web: s.web_research_tasks ?? {} },
    interruption:
      s.interruption_category || s.phase === "failed"
        ? { category: s.interruption_category ?? "failed", cause: s.interruption_cause ?? null, log_path: s.interruption_log_path ?? null }
        : null,
    // a failed run can be resumed as soon as it failed, even while its orchestrator is still exiting
    resume_command: resumeCommand(s, { id: d.id, live: d.live && !phaseEnded(s.phase) }),
    commit_hash: s.commit_hash ?? null,
    pr_url: s.pr_url ?? null,
    notes: s.completion_notes ?? [],
    api_version: RUN_API_VERSION,
    stages: stagesNow(s, timeline),
    // a run that failed (or was canceled) while fixing still shows the round that failed
    review_round: reviewRound({ phase: s.phase === "failed" ? (failedAt(s) ?? s.phase) : s.phase, review_iteration: s.review_iteration }),
    review_loop_cap: s.review_loop_cap ?? null,
    done_agents: done,
    waiting_for: waitingFor(s, d.dir, agents),
    decision_waits: s.decision_waits ?? null,
    awaiting_decision: s.phase === "completing" && s.awaiting_decision === true,
    base_commit: s.base_commit ?? null,
    headless: s.headless === true,
    checks: checksSnapshot(s),
    session_name: s.session_name,
    subplan_count: s.subplan_count,
    files: filesOf(d.created ?? []),
  };
}

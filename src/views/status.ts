import { eventLabel, phaseEnded } from "../schema/catalog.ts";
import type { SessionData } from "../session/data.ts";
import { fit, seg, wrapText, type Line, type Style } from "./line.ts";
import { titleOf } from "./monitor.ts";
import { reviewRound } from "./review-round.ts";
import { activeMs } from "../schema/active-time.ts";
import { STATUS_LABEL, STATUS_STYLE, agentNote, agentRows, phaseLabel } from "./pipeline.ts";
import { age, duration, hhmm, ms, when } from "./time.ts";
import { cutCells, padCells } from "./width.ts";
import { costText, tokensText, usageByAgent, usageFigures, usageLine, usageTotal, type UsageSum } from "./usage.ts";

/**
 * `lastSeen`: the orchestrator's last sign of life (its log's mtime), ms — when a stopped run
 * stopped. `worktreeGone`: the run's worktree folder is no longer there (removed at the commit).
 */
export type StatusInput = SessionData & { id: string; live: boolean; toolEvents: number; now: number; lastSeen?: number; worktreeGone?: boolean };

const finished = (d: StatusInput) => phaseEnded(d.state.phase);

/**
 * When the run stopped: undefined while it runs. A finished run ended at its last state write; a
 * run nobody runs any more (its orchestrator died, the machine rebooted) at its last sign of life.
 */
function stoppedAt(d: StatusInput): number | undefined {
  if (d.live && !finished(d)) return undefined;
  const wrote = ms(d.state.updated_at) ?? d.now;
  return finished(d) ? wrote : Math.max(wrote, d.lastSeen ?? 0);
}

/** The command that resumes this session, when it can be resumed. */
export function resumeCommand(d: StatusInput): string | undefined {
  if (d.state.phase === "done" || d.live) return undefined;
  return d.state.interruption_resume_command ?? `agentmux resume ${d.id}`;
}

/** `agentmux status --json`: a stable object (fields are only added, never renamed). */
export function statusJson(d: StatusInput) {
  const s = d.state;
  const byAgent = usageByAgent(s);
  const total = usageTotal(s);
  const figures = (u: UsageSum | undefined) => (u ? usageFigures(u) : null);
  const stopped = stoppedAt(d);
  const end = stopped ?? d.now;
  const started = ms(s.created_at) ?? ms(s.history?.[0]?.at);
  const hist = s.history ?? [];
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
    /** wall time since the run was created: to now while it runs, to when it stopped once it stopped */
    elapsed_ms: started === undefined ? null : Math.max(0, end - started),
    /** how long it was active, to now or to when it stopped: every orchestrator lifetime, not the idle time between a cancel and a resume */
    active_ms: started === undefined && !s.active_since ? null : activeMs(s, end),
    stopped_at: stopped === undefined ? null : new Date(stopped).toISOString(),
    branch: s.feature_branch ?? null,
    worktree_path: s.worktree_path ?? null,
    /** the worktree folder was removed (at the commit): worktree_path is where it was */
    worktree_removed: Boolean(s.worktree_path && d.worktreeGone),
    review_iteration: s.review_iteration,
    tool_events: d.toolEvents,
    timeline: hist.map((h, i) => {
      const at = ms(h.at);
      const next = i + 1 < hist.length ? ms(hist[i + 1]!.at) : end;
      return { phase: h.phase, event: h.event, at: h.at, duration_ms: at === undefined || next === undefined ? null : Math.max(0, next - at) };
    }),
    agents: agentRows(s, d.runtime).map((r) => ({
      key: r.key, label: r.info.label, role: r.info.role, provider: r.info.provider ?? null, model: r.info.model ?? null,
      // a stopped session's agents are not working, whatever state.json last said
      status: d.live || r.status === "exited" ? r.status : ("stopped" as const), pane: d.live ? (r.pane ?? null) : null, note: r.info.note ?? null,
      question: r.info.question ?? null, limit: r.info.limit ?? null, idle_turns: r.info.idle_turns ?? 0,
      restarts: r.info.restarts ?? 0, exit_status: r.info.exit_status ?? null, last_screen: r.info.last_screen ?? null,
      conversation_id: r.info.conversation_id ?? null, detail: agentNote(r.info, r.status) || null,
      usage: figures(byAgent[r.key]),
    })),
    /** tokens and estimated cost (USD) of the whole run, from the CLIs' own records; null when none could be read */
    usage: figures(total ?? undefined),
    /** the same per agent (a finished run lists no agents, but their usage stays) */
    usage_by_agent: Object.fromEntries(Object.entries(byAgent).map(([k, u]) => [k, figures(u)!])),
    budget_reached: s.budget_reached?.text ?? null,
    tmux: d.runtime ? { session: d.runtime.tmux_session, socket: d.runtime.tmux_socket ?? null } : null,
    groups: {
      total: s.implementation_group_total, index: s.implementation_group_index, mode: s.implementation_group_mode,
      active_plan_ids: s.implementation_active_plan_ids, completed_group_ids: s.implementation_completed_group_ids,
    },
    reviews: s.review_results ?? {},
    research: { code: s.research_tasks ?? {}, web: s.web_research_tasks ?? {} },
    interruption: s.interruption_category || s.phase === "failed"
      ? { category: s.interruption_category ?? "failed", cause: s.interruption_cause ?? null, log_path: s.interruption_log_path ?? null }
      : null,
    resume_command: resumeCommand(d) ?? null,
    commit_hash: s.commit_hash ?? null,
    pr_url: s.pr_url ?? null,
    /** what the end of the run noted: why there is no pull request, where the checkout is */
    notes: s.completion_notes ?? [],
  };
}

const kv = (k: string, v: string, ...st: Style[]): Line => [seg(k.padEnd(11), "dim"), seg(v, ...st)];
const head = (t: string): Line => [seg(t, "bold")];
/** A key and a value wrapped under it (what went wrong and where to look: never cut with "…"). */
const kvWrapped = (k: string, v: string, width: number, ...st: Style[]): Line[] =>
  wrapText(v, width - 11).map((l, i) => [seg((i ? "" : k).padEnd(11), "dim"), seg(l, ...st)]);

/** `agentmux status`: one screen of text for a session, live or finished, without tmux. */
export function statusView(d: StatusInput, width: number): Line[] {
  const j = statusJson(d);
  const s = d.state;
  const phaseStyle: Style = s.phase === "failed" ? "red" : s.phase === "done" ? "green" : "cyan";
  const last = ms(s.updated_at);
  const out: Line[] = [
    kv("Session", `${d.id}  `).concat(seg(d.live ? "● live" : "○ stopped", d.live ? "green" : "dim")),
    kv("Feature", j.feature),
    kv("Phase", phaseLabel(s.phase), phaseStyle, "bold"),
    kv("Last event", `${eventLabel(s.last_event)}${last === undefined ? "" : ` (${hhmm(last)}, ${age(d.now - last)})`}`),
  ];
  if (j.active_ms !== null && j.stopped_at === null) out.push(kv("Elapsed", `${duration(j.active_ms)} (active time)`));
  else if (j.stopped_at !== null) {
    const how = s.phase === "done" ? "finished" : s.phase === "failed" ? "ended" : "stopped";
    const at = Date.parse(j.stopped_at);
    out.push(kv("Ran", `${j.active_ms === null ? "?" : `${duration(j.active_ms)} active`} · ${how} ${when(at, d.now)} (${age(d.now - at)})`));
  }
  if (j.branch) out.push(kv("Branch", j.branch));
  if (j.worktree_path) out.push(j.worktree_removed ? kv("Worktree", `removed (was ${j.worktree_path})`, "dim") : kv("Worktree", j.worktree_path));
  if (s.commit_hash) out.push(kv("Commit", s.commit_hash));
  if (s.pr_url) out.push(kv("PR", s.pr_url));
  j.notes.forEach((n, i) => out.push(...kvWrapped(i ? "" : "Notes", n, width)));
  out.push(kv("Tool calls", String(d.toolEvents)));
  const total = usageTotal(s);
  if (total) out.push(kv("Usage", usageLine(total)));
  if (s.budget_reached) out.push(kv("Budget", s.budget_reached.text, "yellow"));
  if (j.timeline.length) {
    out.push([], head("Timeline"));
    for (const t of j.timeline)
      out.push([seg(`  ${hhmm(t.at)}  `, "dim"), seg(phaseLabel(t.phase).padEnd(19)), seg(eventLabel(t.event).padEnd(19), "dim"), seg(t.duration_ms === null ? "" : duration(t.duration_ms))]);
  }
  if (j.agents.length) {
    out.push([], head("Agents"));
    for (const a of j.agents) {
      const st: Style = a.status === "stopped" ? "dim" : STATUS_STYLE[a.status];
      const label = a.status === "stopped" ? "stopped" : STATUS_LABEL[a.status];
      out.push([seg(`  ${padCells(a.label, 18)} `), seg(label.padEnd(8), st), seg(` ${[a.provider, a.model].filter(Boolean).join("/")}`, "dim"), seg(a.pane ? ` pane ${a.pane}` : "", "dim")]);
      if (a.detail) out.push([seg(`    ${a.detail}`, st)]);
      for (const line of a.status === "exited" || a.status === "stuck" ? (a.last_screen ?? []).slice(-5) : []) out.push([seg(`    │ ${line}`, "dim")]);
    }
    if (j.tmux && j.live) out.push([seg(`  attach: agentmux attach ${j.id}`, "dim")]);
  }
  const used = Object.entries(usageByAgent(s));
  if (used.length) {
    out.push([], head("Usage"));
    for (const [agent, u] of used) out.push([seg(`  ${padCells(cutCells(s.agents?.[agent]?.label ?? agent, 28), 28)} `), seg(`${tokensText(u.tokens).padStart(6)} tokens  `), seg(costText(u).padStart(8)), seg(`  ${u.models.join(", ")}`, "dim")]);
  }
  if (s.implementation_group_total > 0) {
    out.push([], head("Groups"));
    out.push([seg(`  ${s.implementation_completed_group_ids.length}/${s.implementation_group_total} done`), seg(s.implementation_completed_group_ids.length ? ` (${s.implementation_completed_group_ids.join(", ")})` : "", "dim")]);
    if (s.phase === "implementing")
      out.push([seg(`  active: g${s.implementation_group_index} ${s.implementation_group_mode ?? ""} · plans ${s.implementation_active_plan_ids.join(", ") || "-"}`)]);
  }
  const reviews = Object.entries(j.reviews);
  if (reviews.length || s.review_iteration) {
    out.push([], head(`Reviews${s.review_iteration ? ` (round ${reviewRound(s)})` : ""}`));
    for (const [role, r] of reviews) out.push([seg(`  ${role.padEnd(18)} `), seg(r.verdict.padEnd(5), r.verdict === "pass" ? "green" : "red"), seg(` ${r.summary.split("\n")[0]}`, "dim")]);
  }
  const research = [...Object.entries(j.research.code).map(([t, v]) => ["code", t, v]), ...Object.entries(j.research.web).map(([t, v]) => ["web", t, v])];
  if (research.length) {
    out.push([], head("Research"));
    for (const [k, t, v] of research) out.push([seg(`  ${v === "done" ? "✓" : "…"} `, v === "done" ? "green" : "yellow"), seg(`${k}: ${t}`)]);
  }
  if (j.interruption) {
    out.push([], [seg(j.interruption.category === "canceled" ? "Canceled" : "Failed", j.interruption.category === "canceled" ? "yellow" : "red", "bold")]);
    if (j.interruption.cause) out.push(...kvWrapped("  Cause", j.interruption.cause, width));
    if (j.interruption.log_path) out.push(...kvWrapped("  Log", j.interruption.log_path, width));
  }
  if (j.resume_command) out.push([], kv("Resume", j.resume_command, "cyan"));
  return out.map((l) => fit(l, width));
}

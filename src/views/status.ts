import { eventLabel } from "../schema/catalog.ts";
import type { SessionData } from "../session/data.ts";
import { snapshot, type SnapshotInput } from "../report/snapshot.ts";
import type { RunSnapshot } from "../schema/run-api/snapshot.ts";
import { checkLine } from "./check-rows.ts";
import { fit, seg, wrapText, type Line, type Style } from "./line.ts";
import { STATUS_LABEL, STATUS_STYLE, phaseLabel } from "./pipeline.ts";
import { age, duration, hhmm, ms, when } from "./time.ts";
import { cutCells, padCells } from "./width.ts";
import { costText, tokensText, usageLine } from "./usage.ts";

/** What `agentmux status` shows: the snapshot's input (report/read.ts reads it); `created` (the monitor's) is not shown. */
export type StatusInput = SnapshotInput & { created?: SessionData["created"] };

/** `agentmux status --json`: the run's snapshot (the run API: fields are only added, never renamed). */
export const statusJson = (d: StatusInput): RunSnapshot => snapshot(d);

const kv = (k: string, v: string, ...st: Style[]): Line => [seg(k.padEnd(11), "dim"), seg(v, ...st)];
const head = (t: string): Line => [seg(t, "bold")];
/** A key and a value wrapped under it (what went wrong and where to look: never cut with "…"). */
const kvWrapped = (k: string, v: string, width: number, ...st: Style[]): Line[] =>
  wrapText(v, width - 11).map((l, i) => [seg((i ? "" : k).padEnd(11), "dim"), seg(l, ...st)]);

/** What the run waits for from the user, and the command that answers it. */
function waitingLines(j: RunSnapshot, width: number): Line[] {
  const decision = j.waiting_for.find((w) => w.kind === "decision");
  if (!decision) return [];
  return [
    kv("Waiting", "for your approval", "yellow", "bold"),
    ...kvWrapped(
      "",
      j.live ? `approve or ask for changes in its panel: agentmux attach ${j.id}` : `resume it to decide: agentmux resume ${j.id}`,
      width,
      "cyan",
    ),
  ];
}

/** `agentmux status`: one screen of text for a session, live or finished, without tmux. */
export function statusView(d: StatusInput, width: number): Line[] {
  const j = statusJson(d);
  const phaseStyle: Style = j.phase === "failed" ? "red" : j.phase === "done" ? "green" : "cyan";
  const last = ms(j.updated_at);
  const out: Line[] = [
    kv("Session", `${j.id}  `).concat(seg(j.live ? "● live" : "○ stopped", j.live ? "green" : "dim")),
    kv("Feature", j.feature),
    kv("Phase", phaseLabel(j.phase), phaseStyle, "bold"),
    ...waitingLines(j, width),
    kv("Last event", `${j.last_event_label}${last === undefined ? "" : ` (${hhmm(last)}, ${age(d.now - last)})`}`),
  ];
  if (j.active_ms !== null && j.stopped_at === null) out.push(kv("Elapsed", `${duration(j.active_ms)} (active time)`));
  else if (j.stopped_at !== null) {
    const how = j.phase === "done" ? "finished" : j.phase === "failed" ? "ended" : "stopped";
    const at = Date.parse(j.stopped_at);
    out.push(kv("Ran", `${j.active_ms === null ? "?" : `${duration(j.active_ms)} active`} · ${how} ${when(at, d.now)} (${age(d.now - at)})`));
  }
  if (j.branch) out.push(kv("Branch", j.branch));
  if (j.worktree_path) out.push(j.worktree_removed ? kv("Worktree", `removed (was ${j.worktree_path})`, "dim") : kv("Worktree", j.worktree_path));
  if (j.commit_hash) out.push(kv("Commit", j.commit_hash));
  if (j.pr_url) out.push(kv("PR", j.pr_url));
  j.notes.forEach((n, i) => out.push(...kvWrapped(i ? "" : "Notes", n, width)));
  out.push(kv("Tool calls", String(j.tool_events)));
  if (j.usage) out.push(kv("Usage", usageLine(j.usage)));
  if (j.budget_reached !== null) out.push(kv("Budget", j.budget_reached, "yellow"));
  if (j.timeline.length) {
    out.push([], head("Timeline"));
    for (const t of j.timeline)
      out.push([
        seg(`  ${hhmm(t.at)}  `, "dim"),
        seg(phaseLabel(t.phase).padEnd(19)),
        seg(eventLabel(t.event).padEnd(19), "dim"),
        seg(t.duration_ms === null ? "" : duration(t.duration_ms)),
      ]);
  }
  if (j.agents.length) {
    out.push([], head("Agents"));
    for (const a of j.agents) {
      const st = STATUS_STYLE[a.status];
      const label = STATUS_LABEL[a.status];
      out.push([
        seg(`  ${padCells(a.label, 18)} `),
        seg(label.padEnd(8), st),
        seg(` ${[a.provider, a.model].filter(Boolean).join("/")}`, "dim"),
        seg(a.pane ? ` pane ${a.pane}` : "", "dim"),
      ]);
      if (a.detail) out.push([seg(`    ${a.detail}`, st)]);
      for (const line of a.status === "exited" || a.status === "stuck" ? (a.last_screen ?? []).slice(-5) : []) out.push([seg(`    │ ${line}`, "dim")]);
    }
    if (j.tmux && j.live) out.push([seg(`  attach: agentmux attach ${j.id}`, "dim")]);
  }
  const used = Object.entries(j.usage_by_agent);
  if (used.length) {
    const labels = new Map([...j.done_agents, ...j.agents].map((a) => [a.key, a.label]));
    out.push([], head("Usage"));
    for (const [agent, u] of used)
      out.push([
        seg(`  ${padCells(cutCells(labels.get(agent) ?? agent, 28), 28)} `),
        seg(`${tokensText(u.tokens).padStart(6)} tokens  `),
        seg(costText(u).padStart(8)),
        seg(`  ${u.models.join(", ")}`, "dim"),
      ]);
  }
  const g = j.groups;
  if (g.total > 0) {
    out.push([], head("Groups"));
    out.push([
      seg(`  ${g.completed_group_ids.length}/${g.total} done`),
      seg(g.completed_group_ids.length ? ` (${g.completed_group_ids.join(", ")})` : "", "dim"),
    ]);
    if (j.phase === "implementing") out.push([seg(`  active: g${g.index} ${g.mode ?? ""} · plans ${g.active_plan_ids.join(", ") || "-"}`)]);
  }
  const reviews = Object.entries(j.reviews);
  if (reviews.length || j.review_iteration) {
    out.push([], head(`Reviews${j.review_iteration ? ` (round ${j.review_round})` : ""}`));
    for (const [role, r] of reviews)
      out.push([seg(`  ${role.padEnd(18)} `), seg(r.verdict.padEnd(5), r.verdict === "pass" ? "green" : "red"), seg(` ${r.summary.split("\n")[0]}`, "dim")]);
  }
  const research = [...Object.entries(j.research.code).map(([t, v]) => ["code", t, v]), ...Object.entries(j.research.web).map(([t, v]) => ["web", t, v])];
  if (research.length) {
    out.push([], head("Research"));
    for (const [k, t, v] of research) out.push([seg(`  ${v === "done" ? "✓" : "…"} `, v === "done" ? "green" : "yellow"), seg(`${k}: ${t}`)]);
  }
  if (j.checks.results.length) {
    out.push([], head("Checks"));
    const rounds = new Set(j.checks.results.map((c) => c.round)).size;
    for (const c of j.checks.results) {
      out.push([seg(" "), ...checkLine(c, d.now, rounds, false)]);
      if (c.log && c.state !== "passed" && c.state !== "queued" && c.state !== "running") out.push([seg(`     log: ${c.log}`, "dim")]);
    }
  }
  if (j.interruption) {
    out.push([], [seg(j.interruption.category === "canceled" ? "Canceled" : "Failed", j.interruption.category === "canceled" ? "yellow" : "red", "bold")]);
    if (j.interruption.cause) out.push(...kvWrapped("  Cause", j.interruption.cause, width));
    if (j.interruption.log_path) out.push(...kvWrapped("  Log", j.interruption.log_path, width));
  }
  if (j.resume_command) out.push([], kv("Resume", j.resume_command, "cyan"));
  return out.map((l) => fit(l, width));
}

/**
 * A `status --watch` frame for a screen of `rows`: what does not fit is cut at the bottom (the
 * header stays on screen) and the last row says how much and where to see all of it.
 */
export function watchFrame(lines: Line[], rows: number, id: string): Line[] {
  const room = Math.max(1, rows - 1); // the cursor's row after the last line
  if (lines.length <= room) return lines;
  const shown = lines.slice(0, room - 1);
  return [...shown, [seg(`… ${lines.length - shown.length} more lines: agentmux status ${id}`, "dim")]];
}

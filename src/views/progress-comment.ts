import { usageLine } from "./usage.ts";
import type { State } from "../schema/state.ts";
import { inertLine } from "../schema/inert-text.ts";
import { sessionId } from "../protocol/paths.ts";
import { snapshot } from "../report/snapshot.ts";
import type { RunSnapshot } from "../schema/run-api/snapshot.ts";
import { phaseLabel } from "./pipeline.ts";
import { duration } from "./time.ts";
import { checkDetail, checkMark, type CheckMark } from "../report/checks.ts";

/**
 * The issue comment the GitHub Action keeps editing while a run goes: phase checklist, agents
 * with provider and state, review verdicts, elapsed time, then the pull request or the failure
 * and how to retry, all from the run's snapshot (report/). Pure: state in, Markdown out. Text
 * that agents wrote is flattened and escaped so it cannot break the layout, ping people or hide
 * the rest of the comment.
 */
export const PROGRESS_MARKER = "<!-- agentmux:progress -->";

export type CommentEnd =
  | { kind: "success"; prUrl: string | null; branch?: string; commit?: string; note?: string }
  | { kind: "failed" | "canceled"; cause: string; retry: string; patch?: { file: string; base?: string } };

export type ProgressCommentInput = {
  /** our own words, e.g. "issue #42" or "review of pull request #7" */
  subject: string;
  state: State | null;
  startedAt: number;
  now: number;
  runUrl?: string;
  artifact?: string;
  end?: CommentEnd;
  /** what the run left out of its request and why (text from people without an allowed role) */
  notes?: readonly string[];
};

/** One line of untrusted text that stays inert in Markdown (tables, mentions, HTML). */
export function inert(text: string, max = 200): string {
  let t = inertLine(text).replace(/\s+/g, " ").trim();
  if (t.length > max) t = t.slice(0, max - 1).trimEnd() + "…";
  return t.replace(/[\\|`*_[\]<>]/g, (c) => `\\${c}`).replace(/@/g, "@\u200b");
}

const STATUS: Record<string, string> = { starting: "starting", working: "working", idle: "idle", stuck: "⚠️ stuck", exited: "exited", done: "done" };

function phaseLines(r: RunSnapshot): string[] {
  return r.stages.map((st) => {
    const label = phaseLabel(st.phase);
    if (st.state === "done") return `- [x] ${label} · ${duration(st.duration_ms)}`;
    if (st.state === "failed") return `- [ ] ❌ **${label}** (failed here)`;
    if (st.state === "current") return `- [ ] **${label}** ← now, ${duration(st.duration_ms)}`;
    return `- [ ] ${label}`;
  });
}

function agentLines(r: RunSnapshot): string[] {
  const agents = [...r.done_agents, ...r.agents];
  if (!agents.length) return [];
  const rows = agents.map((a) => {
    const provider = a.provider ? `${inert(a.provider, 40)}${a.model ? ` · ${inert(a.model, 40)}` : ""}` : "—";
    return `| ${inert(a.label, 60)} | ${provider} | ${STATUS[a.status] ?? a.status}${a.status === "stuck" && a.note ? `: ${inert(a.note, 80)}` : ""} |`;
  });
  return ["| agent | provider | state |", "|---|---|---|", ...rows];
}

function reviewLines(r: RunSnapshot): string[] {
  const results = Object.entries(r.reviews);
  if (!results.length) return [];
  return [
    `**Reviews** (round ${r.review_round})`,
    ...results
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([role, v]) => `- ${v.verdict === "pass" ? "✅" : "❌"} ${role.replace(/_/g, " ")}: ${v.verdict}, ${inert(v.summary)}`),
  ];
}

/** A check's mark (report/checks.ts, the one rule) as GitHub shows it. */
const EMOJI: Record<CheckMark, string> = { "✓": "✅", "✗": "❌", "!": "⚠️", "…": "⏳", "·": "⏳" };

/** The checks of the latest round: what agentmux ran itself (evidence, next to the reviewers' verdicts). */
function checkLines(r: RunSnapshot): string[] {
  const latest = r.checks.results.filter((c) => c.round === r.checks.round);
  if (!latest.length) return [];
  const mark = (c: (typeof latest)[number]) => EMOJI[checkMark(c)];
  return [
    `**Checks**${r.checks.round ? ` (fix round ${r.checks.round})` : ""}`,
    ...latest.map(
      (c) =>
        `- ${mark(c)} ${inert(c.name, 60)}: ${inert(checkDetail(c, 0), 120)}${c.state === "passed" || c.state === "queued" || c.state === "running" ? "" : ` (\`${inert(c.command ?? "", 120)}\`)`}`,
    ),
  ];
}

function endLines(end: CommentEnd, elapsed: string, r: RunSnapshot | null, artifact?: string): string[] {
  const keep = artifact ? ` The session folder (logs, prompts, reviews) is the workflow artifact \`${artifact}\`.` : "";
  if (end.kind === "success") {
    const where = [end.branch ? `branch \`${end.branch}\`` : "", end.commit ? `commit \`${end.commit}\`` : ""].filter(Boolean).join(", ");
    const pr = end.prUrl ? `pull request ${end.prUrl}` : "committed";
    return [`✅ **Done** in ${elapsed}: ${pr}${where ? ` (${where})` : ""}.${end.note ? ` ${end.note}` : ""}${keep}`];
  }
  const at = r?.stages.find((st) => st.state === "failed")?.phase;
  const title = end.kind === "canceled" ? "Canceled" : "Failed";
  const saved = end.patch
    ? ` The changes made so far are \`${end.patch.file}\` in it: \`git apply\` them${end.patch.base ? ` on commit \`${end.patch.base.slice(0, 7)}\`` : ""}.`
    : "";
  return [
    `❌ **${title}**${at ? ` in ${phaseLabel(at)}` : ""} after ${elapsed}: ${inert(end.cause, 600)}`,
    "",
    `To retry: ${end.retry}.${keep}${keep ? saved : ""}`,
  ];
}

/** The run's snapshot as the comment shows it: live until the run ended. */
function runOf(d: ProgressCommentInput): RunSnapshot | null {
  const s = d.state;
  if (!s) return null;
  return snapshot({ dir: s.feature_dir, state: s, id: sessionId(s.feature_dir), live: !d.end, toolEvents: s.applied_tool_events ?? 0, now: d.now });
}

export function progressComment(d: ProgressCommentInput): string {
  const elapsedMs = d.now - d.startedAt;
  // while running, whole minutes: the comment changes when the run does, not every second
  const elapsed = d.end ? duration(elapsedMs) : elapsedMs < 60_000 ? "under a minute" : `${Math.floor(elapsedMs / 60_000)} min`;
  const status = d.end ? (d.end.kind === "success" ? "done" : d.end.kind) : d.state ? "running" : "starting";
  const out = [PROGRESS_MARKER, `### agentmux · ${d.subject} — ${status} (${elapsed})`, ""];
  const r = runOf(d);
  const facts = [d.runUrl ? `[workflow run](${d.runUrl})` : "", r?.branch ? `branch \`${r.branch}\`` : ""].filter(Boolean);
  if (facts.length) out.push(facts.join(" · "), "");
  for (const n of d.notes ?? []) out.push(`> **Note:** ${inert(n, 400)}`, "");
  if (r) {
    out.push(...phaseLines(r), "");
    const agents = agentLines(r);
    if (agents.length) out.push(...agents, "");
    const reviews = reviewLines(r);
    if (reviews.length) out.push(...reviews, "");
    const checks = checkLines(r);
    if (checks.length) out.push(...checks, "");
    if (r.usage) out.push(`Usage: ${usageLine(r.usage)} (estimated from the agents' own records)`, "");
  } else if (!d.end) out.push("Setting up the runner…", "");
  if (d.end) out.push(...endLines(d.end, elapsed, r, d.artifact), "");
  return out.join("\n");
}

import { usageLine } from "./usage.ts";
import { usageTotal } from "../report/usage.ts";
import type { State } from "../schema/state.ts";
import { inertLine } from "../schema/inert-text.ts";
import { phaseLabel } from "./pipeline.ts";
import { failedAt, stagesOf } from "../report/pipeline.ts";
import { duration, ms } from "./time.ts";
import { reviewRound } from "../report/review-round.ts";

/**
 * The issue comment the GitHub Action keeps editing while a run goes: phase checklist, agents
 * with provider and state, review verdicts, elapsed time, then the pull request or the failure
 * and how to retry. Pure: state in, Markdown out. Text that agents wrote is flattened and
 * escaped so it cannot break the layout, ping people or hide the rest of the comment.
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
};

/** One line of untrusted text that stays inert in Markdown (tables, mentions, HTML). */
export function inert(text: string, max = 200): string {
  let t = inertLine(text).replace(/\s+/g, " ").trim();
  if (t.length > max) t = t.slice(0, max - 1).trimEnd() + "…";
  return t.replace(/[\\|`*_[\]<>]/g, (c) => `\\${c}`).replace(/@/g, "@\u200b");
}

const STATUS: Record<string, string> = { starting: "starting", working: "working", idle: "idle", stuck: "⚠️ stuck", exited: "exited", done: "done" };

function phaseLines(s: State, now: number): string[] {
  const stages = stagesOf(s);
  const history = s.history ?? [];
  const failed = s.phase === "failed";
  const current = failed ? failedAt(s) : s.phase;
  const curIndex = stages.indexOf(current ?? "architecting");
  const spent = (phase: string) => {
    let total = 0;
    history.forEach((h, i) => {
      if (h.phase !== phase) return;
      total += (ms(history[i + 1]?.at) ?? now) - (ms(h.at) ?? now);
    });
    return total;
  };
  return stages
    .filter((st) => st !== "done")
    .map((st, i) => {
      const label = phaseLabel(st);
      if (s.phase === "done" || i < curIndex) return `- [x] ${label} · ${duration(spent(st))}`;
      if (i === curIndex) return failed ? `- [ ] ❌ **${label}** (failed here)` : `- [ ] **${label}** ← now, ${duration(spent(st))}`;
      return `- [ ] ${label}`;
    });
}

function agentLines(s: State): string[] {
  const agents = Object.values(s.agents ?? {});
  if (!agents.length) return [];
  const rows = agents.map((a) => {
    const provider = a.provider ? `${inert(a.provider, 40)}${a.model ? ` · ${inert(a.model, 40)}` : ""}` : "—";
    return `| ${inert(a.label, 60)} | ${provider} | ${STATUS[a.status] ?? a.status}${a.status === "stuck" && a.note ? `: ${inert(a.note, 80)}` : ""} |`;
  });
  return ["| agent | provider | state |", "|---|---|---|", ...rows];
}

function reviewLines(s: State): string[] {
  const results = Object.entries(s.review_results ?? {});
  if (!results.length) return [];
  return [
    `**Reviews** (round ${reviewRound(s)})`,
    ...results.sort(([a], [b]) => a.localeCompare(b)).map(([role, r]) => `- ${r.verdict === "pass" ? "✅" : "❌"} ${role.replace(/_/g, " ")}: ${r.verdict}, ${inert(r.summary)}`),
  ];
}

function endLines(end: CommentEnd, elapsed: string, s: State | null, artifact?: string): string[] {
  const keep = artifact ? ` The session folder (logs, prompts, reviews) is the workflow artifact \`${artifact}\`.` : "";
  if (end.kind === "success") {
    const where = [end.branch ? `branch \`${end.branch}\`` : "", end.commit ? `commit \`${end.commit}\`` : ""].filter(Boolean).join(", ");
    const pr = end.prUrl ? `pull request ${end.prUrl}` : "committed";
    return [`✅ **Done** in ${elapsed}: ${pr}${where ? ` (${where})` : ""}.${end.note ? ` ${end.note}` : ""}${keep}`];
  }
  const at = s ? failedAt(s) : undefined;
  const title = end.kind === "canceled" ? "Canceled" : "Failed";
  const saved = end.patch ? ` The changes made so far are \`${end.patch.file}\` in it: \`git apply\` them${end.patch.base ? ` on commit \`${end.patch.base.slice(0, 7)}\`` : ""}.` : "";
  return [`❌ **${title}**${at ? ` in ${phaseLabel(at)}` : ""} after ${elapsed}: ${inert(end.cause, 600)}`, "", `To retry: ${end.retry}.${keep}${keep ? saved : ""}`];
}

export function progressComment(d: ProgressCommentInput): string {
  const elapsedMs = d.now - d.startedAt;
  // while running, whole minutes: the comment changes when the run does, not every second
  const elapsed = d.end ? duration(elapsedMs) : elapsedMs < 60_000 ? "under a minute" : `${Math.floor(elapsedMs / 60_000)} min`;
  const status = d.end ? (d.end.kind === "success" ? "done" : d.end.kind) : d.state ? "running" : "starting";
  const out = [PROGRESS_MARKER, `### agentmux · ${d.subject} — ${status} (${elapsed})`, ""];
  const facts = [d.runUrl ? `[workflow run](${d.runUrl})` : "", d.state?.feature_branch ? `branch \`${d.state.feature_branch}\`` : ""].filter(Boolean);
  if (facts.length) out.push(facts.join(" · "), "");
  if (d.state) {
    out.push(...phaseLines(d.state, d.now), "");
    const agents = agentLines(d.state);
    if (agents.length) out.push(...agents, "");
    const reviews = reviewLines(d.state);
    if (reviews.length) out.push(...reviews, "");
    const used = usageTotal(d.state);
    if (used) out.push(`Usage: ${usageLine(used)} (estimated from the agents' own records)`, "");
  } else if (!d.end) out.push("Setting up the runner…", "");
  if (d.end) out.push(...endLines(d.end, elapsed, d.state, d.artifact), "");
  return out.join("\n");
}

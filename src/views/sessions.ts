import { phaseEnded } from "../schema/catalog.ts";
import type { SessionSummary } from "../session/list.ts";
import { snapshot } from "../report/snapshot.ts";
import type { RunSnapshot } from "../schema/run-api/snapshot.ts";
import { fit, seg, type Line } from "./line.ts";
import { phaseLabel } from "./pipeline.ts";
import { cells, ellipsize, padCells } from "./width.ts";
import { age } from "./time.ts";

/** A listed session's snapshot (the run API); none when its state.json could not be read. */
export function runOf(s: SessionSummary): RunSnapshot | undefined {
  return s.state && snapshot({ dir: s.dir, state: s.state, id: s.id, live: s.live, toolEvents: s.state.applied_tool_events ?? 0, now: s.updatedAt + s.ageMs });
}

/**
 * What a run waits for from its user, if anything: the approval, or an agent's answer (also a
 * stopped run's agent that was asking: resuming it is the way to answer).
 */
export function needsUser(run: RunSnapshot | undefined): "awaiting_approval" | "needs_input" | null {
  if (!run) return null;
  if (run.awaiting_decision) return "awaiting_approval";
  if (!phaseEnded(run.phase) && run.agents.some((a) => a.last_status === "needs_input")) return "needs_input";
  return null;
}

/** A session row's cells: id, phase (or what it waits for from the user), last event, age, live/stopped (or the state.json error). */
export function sessionCells(s: SessionSummary) {
  const run = runOf(s);
  const needs = needsUser(run);
  return {
    id: s.id,
    // a run its user canceled ended as failed, resumable, with nothing lost: it reads canceled
    phase: needs
      ? phaseLabel(needs)
      : run
        ? run.phase === "failed" && run.interruption?.category === "canceled"
          ? "canceled"
          : phaseLabel(run.phase)
        : "unreadable",
    needs,
    event: run ? run.last_event_label : (s.error ?? ""),
    age: age(s.ageMs),
    live: s.live ? "live" : "stopped",
  };
}

/**
 * The sessions table (`agentmux sessions`, home screen). `selected` marks a row (home screen).
 * Ids stay whole: when they do not fit beside the other columns, LAST EVENT goes first (the
 * phase says most of it), and only then are ids cut.
 */
export function sessionsTable(list: SessionSummary[], width: number, selected?: number): Line[] {
  if (!list.length) return [[seg('No sessions yet. Start one with: agentmux run "<what to build>"', "dim")]];
  const rows = list.map(sessionCells);
  const wPhase = Math.max(5, ...rows.map((r) => cells(r.phase)));
  const wEvent = Math.min(20, Math.max(10, ...rows.map((r) => cells(r.event))));
  const wAge = 9;
  const wLive = 9; // "○ stopped"
  const longestId = Math.max(7, ...rows.map((r) => cells(r.id)));
  const mark = 2; // "› " or "  " before each row
  const rest = mark + 2 + wPhase + 2 + wAge + 2 + wLive;
  const showEvent = width - (rest + 2 + wEvent) >= longestId;
  const wId = Math.max(8, Math.min(longestId, width - rest - (showEvent ? 2 + wEvent : 0)));
  const cell = (t: string, n: number) => padCells(ellipsize(t, n), n);
  const header: Line = [
    seg(
      "  " +
        cell("SESSION", wId) +
        "  " +
        cell("PHASE", wPhase) +
        (showEvent ? "  " + cell("LAST EVENT", wEvent) : "") +
        "  " +
        cell("UPDATED", wAge) +
        "  " +
        "STATUS",
      "bold",
    ),
  ];
  const out: Line[] = [header];
  rows.forEach((r, i) => {
    const sel = i === selected;
    const phaseStyle =
      r.needs || r.phase === "canceled" ? "yellow" : r.phase === "failed" || r.phase === "unreadable" ? "red" : r.phase === "done" ? "green" : "cyan";
    const base = sel ? (["inverse"] as const) : ([] as const);
    out.push([
      seg(sel ? "› " : "  ", "bold"),
      seg(cell(r.id, wId), ...base),
      seg("  "),
      seg(cell(r.phase, wPhase), phaseStyle),
      ...(showEvent ? [seg("  "), seg(cell(r.event, wEvent), "dim")] : []),
      seg("  "),
      seg(cell(r.age, wAge)),
      seg("  "),
      seg(r.live === "live" ? "● live" : "○ stopped", r.live === "live" ? "green" : "dim"),
    ]);
  });
  return out.map((l) => fit(l, width));
}

/** `agentmux sessions --json` rows. */
export const sessionsJson = (list: SessionSummary[]) =>
  list.map((s) => {
    const run = runOf(s);
    return {
      id: s.id,
      dir: s.dir,
      phase: run?.phase ?? null,
      /** what the run waits for from its user: "awaiting_approval", "needs_input" or null */
      needs: needsUser(run),
      last_event: run?.last_event ?? null,
      updated_at: new Date(s.updatedAt).toISOString(),
      live: s.live,
      session_name: run?.session_name ?? null,
      error: s.error ?? null,
    };
  });

import { existsSync } from "node:fs";
import { eventLabel } from "../schema/catalog.ts";
import type { HistoryEntry, State } from "../schema/state.ts";
import { readState } from "../session/read.ts";
import { sessionId } from "../protocol/paths.ts";
import { inertLine, terminalJson } from "../schema/inert-text.ts";
import { events } from "../report/events.ts";
import { checkMark } from "../report/checks.ts";
import { snapshot } from "../report/snapshot.ts";
import type { RunEvent } from "../schema/run-api/event.ts";
import type { RunSnapshot } from "../schema/run-api/snapshot.ts";

export type ProgressMode = "plain" | "json";

const hhmmss = (iso: string) => new Date(iso).toTimeString().slice(0, 8);

function readStateLoose(dir: string): State | null {
  try {
    return readState(dir);
  } catch {
    return null; // gone (cleaned up after the commit) or not readable this instant
  }
}

/**
 * The run's events (report/events.ts) as the run goes: in json mode every event as a JSON line,
 * in plain mode one line per phase, per agent that starts to need something or recovers, per
 * review verdict, per decision to make and per budget reached.
 */
export class ProgressPrinter {
  private prev: RunSnapshot | null = null;
  last: State | null = null;

  /** `waitsBefore`: decision waits of the state the run (or resume) started from — already announced then */
  constructor(
    private readonly dir: string,
    private readonly mode: ProgressMode,
    private readonly out: (line: string) => void,
    private readonly status?: (text: string) => void,
    private readonly waitsBefore = 0,
  ) {}

  poll(): void {
    if (!existsSync(this.dir)) return;
    const s = readStateLoose(this.dir);
    if (s) this.replay(s);
  }

  /** Print what `s` holds that was not printed yet (also the orchestrator's final report). */
  replay(s: State): void {
    this.last = s;
    // the follower runs while its orchestrator does: the run is live; the applied count saves a scan of tool_events.jsonl
    const next = snapshot({ dir: this.dir, state: s, id: sessionId(this.dir), live: true, toolEvents: s.applied_tool_events ?? 0, now: Date.now() });
    const first = this.prev === null;
    const evs = events(this.prev, next).filter(
      (e) => !(first && e.kind === "awaiting_decision" && (next.decision_waits ?? 0) <= this.waitsBefore && next.decision_waits !== null),
    );
    this.prev = next;
    if (this.status) {
      const working = next.agents.filter((a) => a.status === "working" || a.status === "starting").map((a) => a.label);
      this.status(`${next.phase} · ${next.last_event_label}${working.length ? ` · ${working.join(", ")}` : ""}`);
    }
    for (const e of evs) {
      if (this.mode === "json") this.out(terminalJson(e));
      else {
        // labels, notes and causes are untrusted: a line is inert text
        const text = plainLine(e, next);
        if (text !== null) this.out(inertLine(text));
      }
    }
  }
}

/** An event as the plain progress line says it; null for those it leaves to the spinner and the end summary. */
export function plainLine(e: RunEvent, s: RunSnapshot): string | null {
  const label = (key: string) => [...s.agents, ...s.done_agents].find((a) => a.key === key)?.label ?? key;
  switch (e.kind) {
    case "phase": {
      const extra = e.phase === "failed" && s.interruption?.cause ? ` — ${s.interruption.cause}` : "";
      return `${hhmmss(e.at)}  ${e.phase.padEnd(18)} ${eventLabel(e.event)}${extra}`;
    }
    case "awaiting_decision":
      return `agentmux: waiting for your decision — approve: write ${e.approval} ({"action": "approve", "exclude_files": []}); or request changes: write ${e.changes}`;
    case "agent_restarted":
      return `${hhmmss(e.at)}  ↻ ${label(e.agent)} exited${e.exit_status ? ` (status ${e.exit_status})` : ""}; restarted (${e.restarts})${e.last_line !== null ? ` — last line: ${e.last_line}` : ""}`;
    case "agent_fallback":
      return `${hhmmss(e.at)}  ⇄ ${label(e.agent)} hit a usage limit on ${e.from}; moved to ${e.to}`;
    case "agent_question_answered":
      return `${hhmmss(e.at)}  ? ${label(e.agent)} ${e.question.kind === "permission" ? "asked permission" : "asked"}: ${e.question.text} — ${e.answer ?? "answered"}`;
    case "agent_stuck":
      return `${hhmmss(e.at)}  ! ${label(e.agent)} is stuck: ${e.note}`;
    case "agent_needs_input":
      return `${hhmmss(e.at)}  ? ${label(e.agent)} ${e.question?.kind === "permission" ? "asks permission" : "asks"}: ${e.question?.text ?? ""}`;
    case "agent_rate_limited":
      return `${hhmmss(e.at)}  ⏸ ${label(e.agent)} hit a usage limit (${e.limit?.text ?? ""}); waiting ${e.limit?.reset_at ? `until ${hhmmss(e.limit.reset_at)}` : "to retry"}`;
    case "agent_reminded":
      return `${hhmmss(e.at)}  ◔ ${label(e.agent)} ended its turn without its submit; reminder ${e.reminders} sent`;
    case "review_verdict":
      return `${hhmmss(e.at)}  ${e.verdict === "pass" ? "✓" : "✗"} ${e.reviewer.replace(/_/g, " ")} (review round ${e.round}): ${e.verdict} — ${e.summary.split("\n")[0]}`;
    case "check": {
      const mark = checkMark({ state: e.status, blocking: e.blocking });
      const what =
        e.status === "passed"
          ? "passed"
          : e.status === "timed_out"
            ? "timed out (killed)"
            : e.status === "error"
              ? "could not run"
              : `failed${e.failures ? ` (${e.failures} failure${e.failures === 1 ? "" : "s"})` : ""}`;
      const why = e.status === "passed" ? "" : e.pre_existing ? " — pre-existing on the base, not blocking" : !e.required ? " — advisory" : "";
      return `${hhmmss(e.at)}  ${mark} check ${e.name} ${what} in ${(e.duration_ms / 1000).toFixed(1)} s${why}${e.status === "passed" ? "" : ` (${e.log})`}`;
    }
    case "budget_reached":
      return `${hhmmss(e.at)}  ⏸ budget reached: ${e.text}${e.paused ? "; the agents are paused" : ""}`;
    default:
      return null; // agent_status (the spinner), committed, pull_request, interrupted (the end summary), notice (the launcher's own)
  }
}

/** Phases with their durations, from the history. */
export function phaseDurations(history: HistoryEntry[], end = new Date().toISOString()): { phase: string; ms: number }[] {
  return history.map((h, i) => ({ phase: h.phase, ms: Date.parse(history[i + 1]?.at ?? end) - Date.parse(h.at) }));
}

import { existsSync } from "node:fs";
import { join } from "node:path";
import { F } from "../session/paths.ts";
import { eventLabel } from "../schema/catalog.ts";
import type { AgentInfo, HistoryEntry, State } from "../schema/state.ts";
import { readState } from "../session/read.ts";
import { inertLine, terminalJson } from "../schema/inert-text.ts";

export type ProgressMode = "plain" | "json";

const hhmmss = (iso: string) => new Date(iso).toTimeString().slice(0, 8);

function readStateLoose(dir: string): State | null {
  try {
    return readState(dir);
  } catch {
    return null; // gone (cleaned up after the commit) or not readable this instant
  }
}

/** One line per phase transition (and per agent turning stuck), printed as the run goes. */
export class ProgressPrinter {
  private seen = 0;
  private seenAgents = new Map<string, string>();
  private awaiting = false;
  last: State | null = null;

  /** `waitsBefore`: decision waits of the state the run (or resume) started from — already announced then */
  constructor(
    private readonly dir: string,
    private readonly mode: ProgressMode,
    private readonly out: (line: string) => void,
    private readonly status?: (text: string) => void,
    private waitsBefore = 0,
  ) {}

  poll(): void {
    if (!existsSync(this.dir)) return;
    const s = readStateLoose(this.dir);
    if (s) this.replay(s);
  }

  /** Print what `s` holds that was not printed yet (also the orchestrator's final report). */
  replay(s: State): void {
    this.last = s;
    const history = s.history ?? [];
    for (const h of history.slice(this.seen)) this.line(h, s);
    this.seen = history.length;
    if (this.status) {
      const working = Object.values(s.agents ?? {}).filter((a) => a.status === "working" || a.status === "starting").map((a) => a.label);
      this.status(`${s.phase} · ${eventLabel(s.last_event)}${working.length ? ` · ${working.join(", ")}` : ""}`);
    }
    this.decision(s);
    for (const [key, a] of Object.entries(s.agents ?? {})) this.agentLine(key, a);
  }

  /**
   * One line when an agent starts to need something or recovers from a misbehaviour: stuck,
   * a question, a usage limit, a reminder, a restart, a move to a fallback provider.
   */
  private agentLine(key: string, a: AgentInfo): void {
    const sig = `${a.status}|${a.restarts ?? 0}|${a.provider ?? ""}|${a.idle_turns ?? 0}|${a.question?.at ?? ""}`;
    const prev = this.seenAgents.get(key);
    this.seenAgents.set(key, sig);
    if (prev === sig) return;
    const [pStatus, pRestarts, pProvider, pTurns, pAsked] = (prev ?? "|0||0|").split("|");
    const at = hhmmss(a.since);
    if ((a.restarts ?? 0) > Number(pRestarts) && a.status === "starting") {
      this.emit({ kind: "agent_restarted", agent: key, restarts: a.restarts, exit_status: a.exit_status ?? null, last_line: a.last_screen?.at(-1) ?? null }, `${at}  ↻ ${a.label} exited${a.exit_status ? ` (status ${a.exit_status})` : ""}; restarted (${a.restarts})${a.last_screen?.length ? ` — last line: ${a.last_screen.at(-1)}` : ""}`);
    }
    if (prev && a.provider && pProvider && a.provider !== pProvider) {
      this.emit({ kind: "agent_fallback", agent: key, from: pProvider, to: a.provider, limit: a.limit?.text ?? null }, `${at}  ⇄ ${a.label} hit a usage limit on ${pProvider}; moved to ${a.provider}`);
    }
    if (a.question && a.question.at !== pAsked && a.status !== "needs_input") {
      this.emit({ kind: "agent_question_answered", agent: key, question: a.question, answer: a.note ?? null }, `${at}  ? ${a.label} ${a.question.kind === "permission" ? "asked permission" : "asked"}: ${a.question.text} — ${a.note ?? "answered"}`);
    }
    if (a.status === pStatus && (a.idle_turns ?? 0) === Number(pTurns)) return;
    if (a.status === "stuck") this.emit({ kind: "agent_stuck", agent: key, note: a.note ?? "" }, `${at}  ! ${a.label} is stuck: ${a.note ?? ""}`);
    else if (a.status === "needs_input") this.emit({ kind: "agent_needs_input", agent: key, question: a.question ?? null }, `${at}  ? ${a.label} ${a.question?.kind === "permission" ? "asks permission" : "asks"}: ${a.question?.text ?? ""}`);
    else if (a.status === "rate_limited") this.emit({ kind: "agent_rate_limited", agent: key, limit: a.limit ?? null }, `${at}  ⏸ ${a.label} hit a usage limit (${a.limit?.text ?? ""}); waiting ${a.limit?.reset_at ? `until ${hhmmss(a.limit.reset_at)}` : "to retry"}`);
    else if (a.status === "idle_without_submit") this.emit({ kind: "agent_reminded", agent: key, reminders: a.idle_turns ?? 1 }, `${at}  ◔ ${a.label} ended its turn without its submit; reminder ${a.idle_turns ?? 1} sent`);
  }

  /**
   * Once each time the run starts waiting for a decision: where to write it (nobody sees a panel).
   * The wait count catches a wait decided between two polls; the flag serves older states.
   */
  private decision(s: State): void {
    const waiting = s.phase === "completing" && s.awaiting_decision === true;
    const newWait = s.decision_waits !== undefined ? s.decision_waits > this.waitsBefore : waiting && !this.awaiting;
    if (s.decision_waits !== undefined) this.waitsBefore = Math.max(this.waitsBefore, s.decision_waits);
    if (newWait) {
      const approval = join(s.feature_dir, F.approval);
      const changes = join(s.feature_dir, F.changes);
      this.emit(
        { kind: "awaiting_decision", approval, changes },
        `agentmux: waiting for your decision — approve: write ${approval} ({"action": "approve", "exclude_files": []}); or request changes: write ${changes}`,
      );
    }
    this.awaiting = waiting;
  }

  private line(h: HistoryEntry, s: State): void {
    const extra = h.phase === "failed" && s.interruption_cause ? ` — ${s.interruption_cause}` : "";
    this.emit({ kind: "phase", phase: h.phase, event: h.event, at: h.at }, `${hhmmss(h.at)}  ${h.phase.padEnd(18)} ${eventLabel(h.event)}${extra}`);
  }

  /** Labels, notes and causes are untrusted: a line is inert text, a JSON line the same data escaped. */
  private emit(obj: Record<string, unknown>, text: string): void {
    this.out(this.mode === "json" ? terminalJson(obj) : inertLine(text));
  }
}

/** Phases with their durations, from the history. */
export function phaseDurations(history: HistoryEntry[], end = new Date().toISOString()): { phase: string; ms: number }[] {
  return history.map((h, i) => ({ phase: h.phase, ms: Date.parse(history[i + 1]?.at ?? end) - Date.parse(h.at) }));
}

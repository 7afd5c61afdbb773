import type { Provider } from "../schema/config.ts";
import type { Event } from "../schema/events.ts";
import { compileGate, type CompiledGate } from "../effects/tmux/screen.ts";
import { snapshotMany } from "../effects/tmux/snapshots.ts";
import type { Snapshot } from "../effects/tmux/screen.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import type { Logger } from "../effects/log.ts";
import { EarliestWake } from "../effects/wake.ts";
import { monotonicClock, type Clock } from "../effects/clock.ts";
import { countMatches, dialogText, lineMatching, parseResetTime, questionAtEnd, tailLines } from "./screen-facts.ts";

export type Watched = { agent: string; pane: string; provider: Provider };

type Pane = {
  pane: string;
  gate: CompiledGate;
  dialogs: { re: RegExp; kind: "question" | "permission" }[];
  limits: RegExp[];
  settleMs: number;
  screen: string;
  changedAt: number;
  /** a turn is under way: a prompt was accepted or, after one, the agent was seen busy */
  inTurn: boolean;
  /** a prompt was accepted at least once: busy before that is the CLI starting (codex's title
   * spins while its MCP servers boot), not a turn that could end without a submit */
  prompted: boolean;
  busy: boolean;
  /** when the current turn's prompt was accepted (on the watcher's clock) */
  turnAt: number;
  /** the current turn showed a sign of work: busy, or a tool call since its prompt was accepted */
  worked: boolean;
  /** deliveries to this agent under way: a turn that ends meanwhile belongs to the task before the one being delivered */
  delivering: number;
  dialogCounts: number[];
  limitCount: number;
  /** a usage-limit text appeared during this turn */
  limitLine: string | null;
  stuck: boolean;
  /** when the current turn ended (on the watcher's clock), for nudge timing */
  endedAt: number;
  /** the turn looks over (idle, no dialog) but the screen has not been still long enough: when it will have been */
  endingAt: number | null;
  settledAt: number;
};

/** One look at several panes (tmux's: snapshotMany; a test's: screens it sets by hand). */
export type ScreenSource = (panes: string[]) => Promise<Map<string, Snapshot>>;

export type TurnWatcherOptions = ({ tmux: Tmux } | { screens: ScreenSource }) & {
  watched: () => Watched[];
  push: (e: Event) => void;
  log: Logger;
  /** watchdog.stuck_after_s in ms (0 = off) */
  stuckAfterMs: number;
  pollMs?: number;
  /** when the agent last called one of agentmux's tools (on `clock`, 0: never): a sign of work */
  lastToolCall?: (agent: string) => number;
  /** the clock of every time this watcher takes and gives (performance.now() unless given) */
  clock?: Clock;
};

/**
 * A turn that showed no sign of work (never busy, no tool call) since its prompt was accepted
 * ends only once its screen has been still this long: a CLI shows its spinner late (qwen 0.15
 * about 1 s after the prompt left its box, agy 4-5 s under load), and an idle-looking screen
 * before that is not a turn that ended (#27). A working CLI animates, so 10 s of stillness is idle.
 */
export const NO_SIGN_STILL_MS = 10_000;

const now = () => new Date().toISOString();

/**
 * Reads every agent's pane a few times a second and turns what it sees into events: a turn
 * that ended (busy → idle prompt, screen settled), a question or permission dialog, a usage
 * limit at the end of a turn, no output for watchdog.stuck_after_s. What to do about them is
 * the pure orchestrator's decision.
 */
export class TurnWatcher {
  private readonly panes = new Map<string, Pane>();
  /** agents whose prompt was accepted before the first look at their pane: when */
  private readonly early = new Map<string, number>();
  /** when each agent last did work its screen may not show (workSeen) */
  private readonly workAt = new Map<string, number>();
  /** when each agent's CLI last said itself that its turn ended (cliTurnEnded) */
  private readonly cliEndAt = new Map<string, number>();
  private readonly pending = new Map<string, number>();
  private timer: { stop(): void } | null = null;
  private readonly clock: Clock;
  private readonly screens: ScreenSource;
  /** one extra look, due when a turn that looks over will have settled (or asked for by lookSoon) */
  private readonly extra: EarliestWake;
  private ticking = false;
  /** lookSoon was asked during a tick: look once more when it ends */
  private again = false;

  constructor(private readonly o: TurnWatcherOptions) {
    const clock = (this.clock = o.clock ?? monotonicClock);
    this.screens = "screens" in o ? o.screens : (panes) => snapshotMany(o.tmux, panes);
    this.extra = new EarliestWake(
      () => this.tickLogged(),
      () => clock.now(),
      (ms, fn) => clock.after(ms, fn),
    );
  }

  start(): void {
    this.timer = this.clock.every(this.o.pollMs ?? 250, () => this.tickLogged());
  }

  private tickLogged(): void {
    void this.tick().catch((e) => this.o.log(`turn watcher: ${(e as Error).message}`, { level: "warn", event: "watchdog" }));
  }

  stop(): void {
    this.timer?.stop();
    this.timer = null;
    this.extra.cancel();
  }

  /** Look at the panes now, between polls (an agent wrote the file it owes: its turn is ending). */
  lookSoon(): void {
    if (this.ticking) this.again = true;
    else this.lookAt(this.clock.now());
  }

  /** One extra look at `at` (on the watcher's clock), unless one is due sooner. */
  private lookAt(at: number): void {
    if (this.timer) this.extra.at(at);
  }

  /** A prompt (or reminder) was accepted: the agent is in a turn until its screen settles idle. */
  turnStarted(agent: string): void {
    const p = this.panes.get(agent);
    if (p) {
      p.inTurn = true;
      p.prompted = true;
      p.worked = false;
      p.changedAt = p.turnAt = this.clock.now();
    } else this.early.set(agent, this.clock.now()); // accepted before the first look at its pane
  }

  /** The agent's turn did work (a tool call, a file it wrote): its end may be seen at once. */
  workSeen(agent: string): void {
    this.workAt.set(agent, this.clock.now());
  }

  /**
   * The agent's CLI said its turn ended (its own hook: claude's Stop, codex's notify). A turn
   * that did work then ends at once, without waiting for its screen to settle or for a ready
   * pattern to match; a signal before any sign of work (a late one of the turn before) is
   * ignored, and the screen rule stays the fallback.
   */
  cliTurnEnded(agent: string): void {
    this.cliEndAt.set(agent, this.clock.now());
    this.lookSoon();
  }

  /**
   * A prompt or note is being delivered to the agent (`true`), or that delivery ended. While one
   * is under way no turn end is reported: the turn that ends then is the previous task's, and
   * charging it to the task being delivered is a false "ended its turn without its submit".
   */
  delivering(agent: string, under: boolean): void {
    const n = (this.pending.get(agent) ?? 0) + (under ? 1 : -1);
    if (n > 0) this.pending.set(agent, n);
    else this.pending.delete(agent);
    const p = this.panes.get(agent);
    if (p) p.delivering = Math.max(0, n);
  }

  /** The agent is at its idle prompt with no turn under way (a reminder may go in). */
  isIdle(agent: string): boolean {
    const p = this.panes.get(agent);
    return !!p && !p.inTurn && !p.busy;
  }

  /** When the agent's last turn ended and when its screen had settled (on the watcher's clock). */
  lastTurnEnd(agent: string): { endedAt: number; settledAt: number } | null {
    const p = this.panes.get(agent);
    return p && p.endedAt ? { endedAt: p.endedAt, settledAt: p.settledAt } : null;
  }

  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const watched = this.o.watched();
      const live = new Set(watched.map((w) => w.agent));
      for (const agent of [...this.panes.keys()]) if (!live.has(agent)) this.panes.delete(agent);
      for (const agent of [...this.workAt.keys()]) if (!live.has(agent)) this.workAt.delete(agent);
      for (const agent of [...this.cliEndAt.keys()]) if (!live.has(agent)) this.cliEndAt.delete(agent);
      const snaps = await this.screens(watched.map((w) => w.pane));
      for (const w of watched) {
        const snap = snaps.get(w.pane);
        if (!snap || snap.dead) continue;
        this.look(w, snap.screen, snap.title);
      }
    } finally {
      this.ticking = false;
    }
    // a turn that looks over is confirmed as soon as its screen has been still long enough,
    // not at the next poll (up to a poll interval later)
    let due = this.again ? this.clock.now() : Infinity;
    this.again = false;
    for (const p of this.panes.values()) if (p.endingAt !== null) due = Math.min(due, p.endingAt);
    if (due !== Infinity) this.lookAt(due + 5);
  }

  private pane(w: Watched): Pane {
    let p = this.panes.get(w.agent);
    if (!p || p.pane !== w.pane) {
      const prov = w.provider;
      const acceptedAt = this.early.get(w.agent);
      const early = this.early.delete(w.agent);
      p = {
        pane: w.pane,
        gate: compileGate(prov.ready),
        dialogs: prov.dialogs.map((d) => ({ re: new RegExp(d.detect, "m"), kind: d.kind })),
        limits: prov.limits.map((l) => new RegExp(l, "m")),
        settleMs: Math.max(prov.ready.settle_ms, 100),
        screen: "",
        changedAt: this.clock.now(),
        inTurn: early,
        prompted: early,
        busy: false,
        turnAt: acceptedAt ?? this.clock.now(),
        worked: false,
        delivering: this.pending.get(w.agent) ?? 0,
        dialogCounts: prov.dialogs.map(() => 0),
        limitCount: 0,
        limitLine: null,
        stuck: false,
        endedAt: 0,
        endingAt: null,
        settledAt: 0,
      };
      this.panes.set(w.agent, p);
    }
    return p;
  }

  private look(w: Watched, screen: string, title: string): void {
    const p = this.pane(w);
    const t = this.clock.now();
    const agent = w.agent;
    if (screen !== p.screen) {
      p.screen = screen;
      p.changedAt = t;
      if (p.stuck) {
        p.stuck = false;
        this.o.push({ type: "agent_active", at: now(), agent });
      }
    }
    const both = `${screen}\n${title}`;
    // dialogs: a new appearance (more matches than before) waits for a person
    let dialogOpen = false;
    p.dialogs.forEach((d, i) => {
      const n = countMatches(d.re, both);
      if (n > p.dialogCounts[i]!) this.o.push({ type: "agent_dialog", at: now(), agent, kind: d.kind, text: dialogText(screen, title, d.re) });
      p.dialogCounts[i] = n;
      if (n > 0 && (d.re.test(title) || tailLines(screen, 15).some((l) => d.re.test(l)))) dialogOpen = true;
    });
    const limits = p.limits.reduce((n, re) => n + countMatches(re, screen), 0);
    if (limits > p.limitCount) p.limitLine = p.limits.map((re) => lineMatching(screen, re)).find((l) => l) ?? "usage limit";
    p.limitCount = limits;

    const busy = p.gate.isBusy({ screen, title });
    if (busy && !p.busy && !p.inTurn) this.o.push({ type: "agent_active", at: now(), agent });
    p.busy = busy;
    if (busy && p.prompted) p.inTurn = true;
    if (busy && p.inTurn) p.worked = true;
    if (p.inTurn && !p.worked && Math.max(this.workAt.get(agent) ?? 0, this.o.lastToolCall?.(agent) ?? 0) >= p.turnAt) p.worked = true;
    const said = p.worked && (this.cliEndAt.get(agent) ?? 0) >= p.turnAt;
    const ready = said || (p.gate.ready ? p.gate.ready.test(screen) : true);
    const stillFor = said ? 0 : p.worked ? (p.gate.ready ? p.settleMs : Math.max(p.settleMs, 2000)) : Math.max(p.settleMs, NO_SIGN_STILL_MS);
    const settled = t - p.changedAt >= stillFor;
    const over = p.inTurn && !busy && !dialogOpen && ready && p.delivering === 0;
    p.endingAt = over && !settled ? p.changedAt + stillFor : null;
    if (over && settled) {
      p.inTurn = false;
      p.endedAt = t;
      p.settledAt = p.changedAt;
      const tail = tailLines(screen, 20).join("\n");
      const limitAtEnd = p.limitLine && p.limits.some((re) => re.test(tail));
      if (limitAtEnd) {
        this.o.log(`${agent}: its turn ended on a usage limit: ${p.limitLine}`, { level: "warn", event: "watchdog", agent, data: { limit: p.limitLine } });
        this.o.push({ type: "agent_rate_limited", at: now(), agent, text: p.limitLine!, reset_at: parseResetTime(p.limitLine!, new Date()) });
      } else {
        const question = questionAtEnd(screen, p.gate.ready, p.gate.main);
        const how = said ? "its CLI said so" : `screen settled ${Math.round(t - p.changedAt)} ms`;
        this.o.log(`${agent}: turn ended (${how})${question ? `, asking: ${question}` : ""}`, {
          event: "watchdog",
          agent,
          data: { turn_ended: true, by_cli: said, ...(question ? { question } : {}) },
        });
        this.o.push({ type: "agent_turn_ended", at: now(), agent, ...(question ? { question } : {}) });
      }
      p.limitLine = null;
    }
    if (this.o.stuckAfterMs > 0 && !p.stuck && t - p.changedAt > this.o.stuckAfterMs) {
      p.stuck = true;
      const s = Math.round(this.o.stuckAfterMs / 1000);
      this.o.log(`watchdog: ${agent} shows no output for ${s} s`, { level: "warn", event: "watchdog", agent, data: { silent_s: s } });
      this.o.push({ type: "agent_stuck", at: now(), agent, reason: `no output and no tool call for ${s} s` });
    }
  }
}

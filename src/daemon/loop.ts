import type { Event } from "../schema/events.ts";
import { phaseEnded } from "../schema/catalog.ts";
import type { Effect } from "../schema/effects.ts";
import type { State } from "../schema/state.ts";
import { transition } from "../orchestrator/transition.ts";
import type { Settings } from "../orchestrator/types.ts";
import { toolLineToEvent } from "../bus/tool-events.ts";
import { regateDone } from "../bus/done-regate.ts";
import type { ToolLine } from "../bus/tool-lines.ts";
import type { SealKey } from "../bus/tool-seal.ts";
import { FILE_EFFECTS, interpret, type InterpretContext } from "./interpret.ts";
import type { Later, Outcome } from "./outcome.ts";
import { writeState } from "../session/write.ts";
import { SessionFolderGone } from "../session/folder-gone.ts";
import type { Logger } from "../effects/log.ts";

type Item = { kind: "event"; event: Event } | { kind: "tool"; line: ToolLine } | { kind: "tool_reset"; cause: string };

export type LoopContext = InterpretContext & {
  /**
   * An effect threw: true when that failure is already reported another way (the tmux server
   * is gone: TmuxLoss says so once, instead of whichever effect failed first).
   */
  explained?: (error: unknown) => Promise<boolean>;
  /** the run's seal key: only lines the endpoint sealed are applied (bus/tool-seal.ts) */
  sealKey: SealKey;
  /**
   * whether this orchestrator's endpoint appended line `seq` as `text` (mcp/events.ts wrote): once
   * caught up, only its own lines are applied; absent, the seal alone decides
   */
  ownLine?: (seq: number, text: string) => boolean;
  /** whether a prompt or note went out to the agent after `at` (ISO): its turn end seen then is the task's before (AgentRuntime) */
  promptedSince?: (agent: string, at: string) => boolean;
  /** an event was applied and its effects ran (not while catching up): the state as it now is */
  applied?: (s: State, event: Event) => void;
  /** runs one step's effects (the layout: a killed agent's place goes to the next one shown, laid out once) */
  effects?: (run: () => Promise<void>) => Promise<void>;
};

/**
 * The impure loop: one item at a time, event → transition → persist (with the effects as a
 * write-ahead outbox and the tool cursor in the same atomic write) → interpret → clear outbox.
 * An effect's outcome (interpret's events, now and to come) and outside signals (`push`) are
 * queued the same way.
 */
export class OrchestratorLoop {
  private queue: Item[] = [];
  private wake: (() => void) | null = null;
  private result: { code: number; cleanup: boolean } | null = null;
  /** while catching up on tool lines written with no orchestrator alive: file effects only */
  private catchingUp = false;
  /**
   * Lines skipped as applied before (by seq) moved the cursor in memory only: written with the
   * next state, at the end of a catch-up, or when the queue runs dry. Losing it costs nothing;
   * the lines are read and skipped again.
   */
  private cursorUnsaved = false;

  constructor(
    public state: State,
    private readonly settings: Settings,
    private readonly ctx: LoopContext,
    private readonly log: Logger,
    private readonly write: (s: State) => void = (s) => writeState(ctx.sessionDir, s),
  ) {}

  /** Every state written carries the tool cursor as it is: none is left unsaved after it. */
  private persist(s: State): void {
    this.write(s);
    this.cursorUnsaved = false;
  }

  push(event: Event): void {
    this.enqueue({ kind: "event", event });
  }

  pushTool(line: ToolLine): void {
    this.enqueue({ kind: "tool", line });
  }

  /**
   * tool_events.jsonl was truncated, replaced or deleted under the run: read it again from its
   * start. Sealed lines carry a run-wide `seq`, so lines applied before are skipped, not re-applied.
   */
  pushToolReset(cause: string): void {
    this.enqueue({ kind: "tool_reset", cause });
  }

  get finished(): boolean {
    return this.result !== null;
  }

  private enqueue(item: Item): void {
    this.queue.push(item);
    this.wake?.();
  }

  /**
   * The run cannot go on and nothing can be recorded any more (its session folder is gone): the
   * failure is decided by the pure transition as usual, kept in memory for the final report
   * only, and the loop ends.
   */
  lose(reason: string): void {
    if (this.result) return;
    const r = transition(this.state, { type: "run_lost", at: new Date().toISOString(), reason }, this.settings);
    this.state = r.state;
    const finish = r.effects.find((e) => e.type === "finish");
    this.result = { code: finish?.type === "finish" ? finish.code : 1, cleanup: false };
    this.log(`run lost: ${reason}`, { level: "error", event: "run_lost", data: { reason } });
    this.wake?.();
  }

  /** Re-run the file effects of a transition whose effects may not all have run (crash). */
  async replayOutbox(): Promise<void> {
    const pending = this.state.outbox ?? [];
    if (!pending.length) return;
    this.log(`re-running ${pending.length} effect(s) left by an interrupted transition`, { event: "effects_replayed", data: { count: pending.length } });
    for (const e of pending) {
      if (FILE_EFFECTS.has(e.type) || e.type === "commit" || e.type === "finish") await this.run1(e);
    }
    this.state = { ...this.state, outbox: undefined };
    this.persist(this.state);
  }

  /**
   * Apply the tool calls agents made while no orchestrator was running, before a resumed phase
   * is re-entered: otherwise the phase re-dispatches work that is already done (a second coder
   * editing the same files). Only file effects run; re-entering the phase starts the agents the
   * state still needs, in a tmux session that has none yet.
   */
  async catchUp(lines: ToolLine[]): Promise<void> {
    if (!lines.length) return;
    this.log(`applying ${lines.length} tool call(s) made while the orchestrator was not running`, {
      event: "tool_calls_replayed",
      data: { count: lines.length },
    });
    this.catchingUp = true;
    try {
      for (const line of lines) if (!this.result) await this.applyTool(line);
    } finally {
      this.catchingUp = false;
    }
    this.saveCursor();
    // The phases entered above ran their fresh-entry file effects already; the resume event
    // must re-enter them as resumed (no second marker reset, no second review round).
    if (!this.result && !phaseEnded(this.state.phase) && this.state.last_event !== "resumed") {
      this.state = { ...this.state, last_event: "resumed" };
      this.persist(this.state);
    }
  }

  /** Apply one event now (the first event, before event sources start). */
  async step(event: Event): Promise<void> {
    await this.apply(event);
  }

  async run(first: Event | null): Promise<{ code: number; cleanup: boolean }> {
    if (first) await this.apply(first);
    while (!this.result) {
      const item = this.queue.shift();
      if (!item) {
        this.saveCursor();
        await new Promise<void>((r) => (this.wake = r));
        this.wake = null;
        continue;
      }
      if (item.kind === "event") {
        if (this.staleTurnEnd(item.event)) continue;
        await this.apply(item.event);
      } else if (item.kind === "tool") await this.applyTool(item.line);
      else this.resetTools(item.cause);
    }
    return this.result;
  }

  /**
   * A turn end seen before the agent was given its next prompt or note (queued behind the tool
   * call whose step sent it) belongs to the task before: charged to the new one it is a false
   * "ended its turn without its submit" (#27). Dropped, and said so.
   */
  private staleTurnEnd(e: Event): boolean {
    if (e.type !== "agent_turn_ended" || !this.ctx.promptedSince?.(e.agent, e.at)) return false;
    this.log(`${e.agent}: its turn end (seen ${e.at}) came before its next prompt went out: it ends the task before, not this one`, {
      event: "watchdog",
      agent: e.agent,
      data: { stale_turn_end: true },
    });
    return true;
  }

  resetTools(cause: string): void {
    this.log(`tool_events.jsonl ${cause}: reading it again from the start; lines up to seq ${this.state.tool_seq ?? 0} are applied already and are skipped`);
    this.save({ ...this.state, tool_cursor: 0 });
  }

  /** Write the cursor that skipped lines moved, if it is not written yet. */
  private saveCursor(): void {
    if (this.cursorUnsaved && !this.result) this.save(this.state);
  }

  /** Persist a state that only moves the tool cursor; a vanished session folder ends the run. */
  private save(next: State): void {
    try {
      this.persist(next);
      this.state = next;
    } catch (e) {
      if (!(e instanceof SessionFolderGone)) throw e;
      this.lose(e.message);
    }
  }

  private async applyTool(line: ToolLine): Promise<void> {
    if (line.end <= (this.state.tool_cursor ?? 0)) return;
    if (!line.value) {
      // a torn or malformed line: reported, and reading goes on with the next complete line
      return this.apply({ type: "tool_rejected", at: new Date().toISOString(), tool: "(unreadable line)", reason: line.error ?? "malformed" }, line.end);
    }
    // lines written while no orchestrator ran (catching up) can only be judged by their seal
    const own = this.catchingUp ? undefined : this.ctx.ownLine;
    const r = toolLineToEvent(line.value, line.text, {
      sessionDir: this.ctx.sessionDir,
      key: this.ctx.sealKey,
      phase: this.state.phase,
      appliedSeq: this.state.tool_seq ?? 0,
      ...(own ? { own } : {}),
    });
    if ("skip" in r) {
      this.state = { ...this.state, tool_cursor: line.end };
      this.cursorUnsaved = true;
      return;
    }
    // the done gate holds when the line is applied too, not only when the tool was called
    const event = await regateDone(r.event, { state: this.state, sessionDir: this.ctx.sessionDir, workDir: this.ctx.workDir });
    await this.apply(event, line.end, r.seq);
  }

  private async apply(event: Event, cursor?: number, seq?: number): Promise<void> {
    const before = this.state.phase;
    const r = transition(this.state, event, this.settings);
    // a changed state is a new object the transition handed over (Result): no second copy
    const next: State = r.state === this.state ? { ...r.state } : r.state;
    next.outbox = r.effects.length ? r.effects : undefined;
    if (cursor !== undefined) {
      next.tool_cursor = cursor;
      next.applied_tool_events = (next.applied_tool_events ?? 0) + 1;
    }
    if (seq !== undefined) next.tool_seq = seq;
    try {
      this.persist(next);
    } catch (e) {
      if (!(e instanceof SessionFolderGone)) throw e;
      // the phase the run was in: the one this transition moved to only when state.json had
      // recorded it before the folder went (agents dying with their folder fail the run first)
      return this.lose(new SessionFolderGone({ dir: e.data.dir, phase: e.data.recorded ? next.phase : before }).message);
    }
    this.state = next;
    const agent = "agent" in event ? event.agent : undefined;
    this.log(
      `event ${event.type}${agent ? ` (${agent})` : ""}: ${before} → ${next.phase} [${next.last_event}]${r.effects.length ? `, ${r.effects.length} effect(s)` : ""}`,
      {
        event: "transition",
        agent,
        phase: next.phase,
        data: { type: event.type, from: before, last_event: next.last_event, effects: r.effects.length },
      },
    );
    const runAll = async () => {
      for (const effect of r.effects) {
        if (this.result) break;
        await this.run1(effect);
      }
    };
    await (this.ctx.effects && r.effects.length ? this.runBatch(this.ctx.effects, runAll) : runAll());
    if (r.effects.length && this.state.outbox) {
      this.state = { ...this.state, outbox: undefined };
      this.persist(this.state);
    }
    if (!this.catchingUp) this.ctx.applied?.(this.state, event);
  }

  /** The effects inside ctx.effects; what fails at its end (the layout) and is not tolerated there is an effect failure like any. */
  private async runBatch(around: (run: () => Promise<void>) => Promise<void>, run: () => Promise<void>): Promise<void> {
    try {
      await around(run);
    } catch (e) {
      await this.failed("show_agents", e);
    }
  }

  private async run1(effect: Effect): Promise<void> {
    if (effect.type === "finish") {
      this.result = { code: effect.code, cleanup: effect.cleanup };
      return;
    }
    if (this.catchingUp && !FILE_EFFECTS.has(effect.type)) return;
    let outcome: Outcome;
    try {
      outcome = await interpret(effect, this.ctx);
    } catch (e) {
      return this.failed(effect.type, e);
    }
    for (const e of outcome.events) this.push(e);
    if (outcome.later) void this.follow(outcome.later);
  }

  /** An effect's events to come, queued as they come. */
  private async follow(later: Later): Promise<void> {
    for await (const e of later) this.push(e);
  }

  private async failed(effect: string, e: unknown): Promise<void> {
    const msg = (e as Error).message ?? String(e);
    this.log(`effect ${effect} failed: ${msg}`, { level: "error", event: "effect_failed", error: (e as Error).stack ?? msg, data: { effect } });
    if (await this.ctx.explained?.(e)) return;
    this.push({ type: "effect_failed", at: new Date().toISOString(), effect, error: msg });
  }
}

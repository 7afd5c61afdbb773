import type { Effect } from "../schema/effects.ts";
import type { StateNote } from "../schema/log.ts";
import type { Phase, Role, WorkflowEvent } from "../schema/catalog.ts";
import { isPhaseMark, isPhaseMove } from "../schema/moves.ts";
import { agentLive, type AgentInfo, type AgentStatus, type State } from "../schema/state.ts";
import { sessionId } from "../protocol/paths.ts";
import { IllegalMark, IllegalMove } from "./errors.ts";
import type { Goto, Settings } from "./types.ts";

/** Append a history entry and make its event the last one. */
const recorded = (state: State, phase: Phase, event: WorkflowEvent, at: string): State => ({
  ...state,
  phase,
  last_event: event,
  history: [...(state.history ?? []), { phase, event, at }],
});

/**
 * Accumulates one transition: the next state, the effects to run, and an optional move to
 * another phase. Pure: no I/O, the clock comes from the event (`at`). The only writer of
 * `phase`, `last_event` and `history`: every move is checked against src/schema/moves.ts.
 */
export class Step {
  effects: Effect[] = [];
  private next: Goto | null = null;

  /** A state prepared for `agentmux resume` in `phase` (the `resumed` workflow event). */
  static resumed(state: State, phase: Phase, at: string): State {
    return recorded(state, phase, "resumed", at);
  }

  /** Every change makes a new object: the state given is never written (test/orchestrator/purity.test.ts). */
  #state: State;

  constructor(
    state: State,
    readonly at: string,
    readonly settings: Settings,
    readonly by: string,
  ) {
    this.#state = state;
  }

  /** The state as this transition has made it so far. */
  get state(): State {
    return this.#state;
  }

  /** Change state fields; the phase, `last_event` and `history` change only by a move, a mark or `fail`. */
  set(patch: Partial<Omit<State, "phase" | "last_event" | "history">>): void {
    this.#state = { ...this.state, ...patch };
  }

  /** Stamp the state with the event's time and the handler that applied it: the last change of every transition. */
  touch(by: string): void {
    this.#state = { ...this.state, updated_at: this.at, updated_by: by };
  }

  emit(...effects: Effect[]): void {
    this.effects.push(...effects);
  }

  /** A note for the orchestrator's log: what it is about (`note`, a stable word), in words, and about which agent. */
  log(note: StateNote, message: string, o: { agent?: string; data?: Record<string, unknown> } = {}): void {
    const effect: Effect & { type: "log" } = { type: "log", note, message };
    if (o.agent) effect.agent = o.agent;
    if (o.data) effect.data = o.data;
    this.effects.push(effect);
  }

  /** Ask for a move to another phase, entered once this handler returns (refused unless in the move table). */
  moveTo(phase: Exclude<Phase, "failed">, event: WorkflowEvent): void {
    const from = this.state.phase;
    if (!isPhaseMove(from, phase, event)) throw new IllegalMove({ from, to: phase, event });
    this.next = { phase, event };
  }

  /** The move asked for, if any. */
  get goto(): Goto | null {
    return this.next;
  }

  /** Make the move asked for: the phase, `last_event` and a history entry. Returns it, or null when none. */
  advance(): Goto | null {
    const move = this.next;
    if (!move) return null;
    this.next = null;
    this.#state = recorded(this.state, move.phase, move.event, this.at);
    return move;
  }

  /** Record a workflow event inside the current phase, without a move (see PHASE_MARKS). */
  mark(event: WorkflowEvent): void {
    if (!isPhaseMark(this.state.phase, event)) throw new IllegalMark({ phase: this.state.phase, event });
    this.#state = recorded(this.state, this.state.phase, event, this.at);
  }

  /**
   * End the run as failed (exit 1) or canceled (exit 130), keeping the session for `agentmux
   * resume`; a move asked for earlier in this transition is dropped.
   */
  fail(cause: string, category: "failed" | "canceled" = "failed"): void {
    const from = this.state.phase;
    const event = category === "canceled" ? "run_canceled" : "run_failed";
    if (!isPhaseMove(from, "failed", event)) throw new IllegalMove({ from, to: "failed", event });
    this.next = null;
    this.#state = {
      ...recorded(this.state, "failed", event, this.at),
      interruption_category: category,
      interruption_cause: cause.replace(/\s+/g, " ").trim(),
      interruption_resume_command: `agentmux resume ${sessionId(this.state.feature_dir)}`,
      interruption_log_path: `${this.state.feature_dir}/orchestrator.log`,
    };
    this.emit({ type: "finish", code: category === "canceled" ? 130 : 1, cleanup: false });
  }

  agents(): Record<string, AgentInfo> {
    return this.state.agents ?? {};
  }

  /** Agents that currently have a pane (not finished or exited). */
  liveAgents(filter: (key: string, a: AgentInfo) => boolean = () => true): string[] {
    return Object.entries(this.agents())
      .filter(([k, a]) => agentLive(a) && filter(k, a))
      .map(([k]) => k);
  }

  setAgent(key: string, patch: Partial<AgentInfo> & { status: AgentStatus }): void {
    const prev = this.agents()[key];
    const next = { ...prev, ...patch, since: prev?.status === patch.status ? prev.since : this.at } as AgentInfo;
    this.set({ agents: { ...this.agents(), [key]: next } });
  }

  /**
   * Start (or restart) an agent pane for a role: a fresh conversation, except for an agent an
   * interruption stopped (resume), whose CLI conversation is continued when it has one.
   */
  launch(agent: string, role: Role, label: string, task?: string, batchPrompt?: string): void {
    const ra = this.settings.role_agents[role];
    const prev = this.agents()[agent];
    const conversation = prev?.interrupted && prev.provider === ra?.provider ? prev.conversation_id : undefined;
    this.setAgent(agent, {
      role,
      task,
      label,
      status: "starting",
      provider: ra?.provider,
      model: ra?.model ?? null,
      conversation_id: conversation,
      restarts: 0,
      idle_turns: 0,
      refusal: undefined,
      question: undefined,
      limit: undefined,
      fallen_from: undefined,
      exit_status: undefined,
      last_screen: undefined,
      note: undefined,
    });
    this.emit({ type: "launch_agent", agent, role, label, ...(batchPrompt ? { batch_prompt: batchPrompt } : {}), ...(conversation ? { conversation } : {}) });
  }

  /**
   * Render a prompt file and deliver its one-line reference to the agent. An agent relaunched
   * after an interruption is told so in that prompt (with what changed since).
   */
  prompt(agent: string, path: string, template: string, vars: Record<string, string> = {}): void {
    const a = this.agents()[agent];
    const role = a?.role ?? "coder";
    const interrupted = a?.interrupted === true;
    if (a) this.setAgent(agent, { status: a.status, prompt: { path, template, vars }, idle_turns: 0, refusal: undefined, interrupted: undefined });
    this.emit(
      { type: "write_prompt", path, template, role, vars, ...(interrupted ? { interrupted: true } : {}) },
      { type: "send_prompt", agent, prompt: path },
    );
  }

  /** One agent alone in the content zone on one prompt: launch it, show it, deliver the prompt. */
  solo(agent: string, role: Role, label: string, prompt: { path: string; template: string; vars?: Record<string, string> }, task?: string): void {
    this.launch(agent, role, label, task);
    this.show([agent]);
    this.prompt(agent, prompt.path, prompt.template, prompt.vars);
  }

  kill(agent: string): void {
    if (!this.agents()[agent]) return;
    const a = this.agents()[agent]!;
    if (agentLive(a)) this.setAgent(agent, { status: "done" });
    this.emit({ type: "kill_agent", agent });
  }

  killWhere(filter: (key: string, a: AgentInfo) => boolean): void {
    for (const key of this.liveAgents(filter)) this.kill(key);
  }

  show(agents: string[]): void {
    this.emit({ type: "show_agents", agents });
  }
}

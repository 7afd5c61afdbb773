import type { Effect } from "../schema/effects.ts";
import type { Phase, Role, WorkflowEvent } from "../schema/catalog.ts";
import type { AgentInfo, AgentStatus, State } from "../schema/state.ts";
import type { Goto, Settings } from "./types.ts";

/**
 * Accumulates one transition: the next state, the effects to run, and an optional move to
 * another phase. Pure: no I/O, the clock comes from the event (`at`).
 */
export class Step {
  effects: Effect[] = [];
  goto: Goto | null = null;

  constructor(
    public state: State,
    readonly at: string,
    readonly settings: Settings,
    readonly by: string,
  ) {}

  set(patch: Partial<State>): void {
    this.state = { ...this.state, ...patch };
  }

  emit(...effects: Effect[]): void {
    this.effects.push(...effects);
  }

  log(message: string): void {
    this.emit({ type: "log", message });
  }

  moveTo(phase: Phase, event: WorkflowEvent): void {
    this.goto = { phase, event };
  }

  agents(): Record<string, AgentInfo> {
    return this.state.agents ?? {};
  }

  /** Agents that currently have a pane (not finished or exited). */
  liveAgents(filter: (key: string, a: AgentInfo) => boolean = () => true): string[] {
    return Object.entries(this.agents())
      .filter(([k, a]) => a.status !== "done" && a.status !== "exited" && filter(k, a))
      .map(([k]) => k);
  }

  setAgent(key: string, patch: Partial<AgentInfo> & { status: AgentStatus }): void {
    const prev = this.agents()[key];
    const next = { ...prev, ...patch, since: prev?.status === patch.status ? prev.since : this.at } as AgentInfo;
    this.set({ agents: { ...this.agents(), [key]: next } });
  }

  /** Start (or restart) an agent pane for a role. */
  launch(agent: string, role: Role, label: string, task?: string, batchPrompt?: string): void {
    const ra = this.settings.role_agents[role];
    this.setAgent(agent, { role, task, label, status: "starting", provider: ra?.provider, model: ra?.model ?? null });
    this.emit({ type: "launch_agent", agent, role, label, ...(batchPrompt ? { batch_prompt: batchPrompt } : {}) });
  }

  /** Render a prompt file and deliver its one-line reference to the agent. */
  prompt(agent: string, path: string, template: string, vars: Record<string, string> = {}): void {
    const role = this.agents()[agent]?.role ?? "coder";
    this.emit({ type: "write_prompt", path, template, role, vars }, { type: "send_prompt", agent, prompt: path });
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
    if (a.status !== "done" && a.status !== "exited") this.setAgent(agent, { status: "done" });
    this.emit({ type: "kill_agent", agent });
  }

  killWhere(filter: (key: string, a: AgentInfo) => boolean): void {
    for (const key of this.liveAgents(filter)) this.kill(key);
  }

  show(agents: string[]): void {
    this.emit({ type: "show_agents", agents });
  }
}

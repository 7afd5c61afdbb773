import { writeRuntime } from "../session/write.ts";
import type { AgentPane, AgentRuntimeOptions } from "./agent-types.ts";
import type { Watched } from "./turns.ts";

type PanesOptions = Pick<AgentRuntimeOptions, "sessionDir" | "sessionName" | "tmux" | "layout" | "controlPane">;

/**
 * Which pane is whose: the agents' live panes (both ways), the panes whose program exited (kept
 * by remain-on-exit with their last screen until relaunched), and their record in runtime.json.
 */
export class AgentPanes {
  readonly #live = new Map<string, AgentPane>();
  readonly #byPane = new Map<string, string>();
  readonly #dead = new Map<string, string>();

  constructor(private readonly o: PanesOptions) {}

  get(agent: string): AgentPane | undefined {
    return this.#live.get(agent);
  }

  has(agent: string): boolean {
    return this.#live.has(agent);
  }

  /** the live agents and their panes */
  all(): [string, AgentPane][] {
    return [...this.#live];
  }

  add(agent: string, pane: AgentPane): void {
    this.#live.set(agent, pane);
    this.#byPane.set(pane.pane, agent);
  }

  /** The agent's live pane is no more the agent's (it is being killed): it, if it had one. */
  remove(agent: string): AgentPane | undefined {
    const a = this.#live.get(agent);
    if (!a) return undefined;
    this.#live.delete(agent);
    this.#byPane.delete(a.pane);
    return a;
  }

  /** The pane's program exited: whose it was (its pane is kept as the agent's dead one), or undefined. */
  exited(pane: string): string | undefined {
    const agent = this.#byPane.get(pane);
    if (!agent) return undefined;
    this.#live.delete(agent);
    this.#byPane.delete(pane);
    this.#dead.set(agent, pane);
    return agent;
  }

  /** The agent's pane, live or dead (where a relaunch takes its place on screen). */
  lastPane(agent: string): string | undefined {
    return this.#live.get(agent)?.pane ?? this.#dead.get(agent);
  }

  /** The agent's dead pane, forgotten here (to be killed), or undefined. */
  takeDead(agent: string): string | undefined {
    const pane = this.#dead.get(agent);
    this.#dead.delete(agent);
    return pane;
  }

  /** The agent whose launch reported turn-end id `id` (its CLI's own hook), or null. */
  agentOfTurnId(id: string): string | null {
    for (const [agent, a] of this.#live) if (a.turnId === id) return agent;
    return null;
  }

  /** Interactive agents for the TurnWatcher (researchers run in batch and are not watched). */
  watched(): Watched[] {
    return this.all()
      .filter(([, v]) => v.role !== "code-researcher" && v.role !== "web-researcher")
      .map(([agent, v]) => ({ agent, pane: v.pane, provider: v.resolved.provider }));
  }

  livePanes(): Map<string, string> {
    return new Map(this.all().map(([k, v]) => [k, v.pane]));
  }

  persist(): void {
    writeRuntime(this.o.sessionDir, {
      tmux_session: this.o.sessionName,
      tmux_socket: this.o.tmux.socket,
      panes: Object.fromEntries(this.all().map(([k, v]) => [k, v.pane])),
      control_pane: this.o.controlPane,
      visible: this.o.layout.visiblePanes(),
      pids: Object.fromEntries(this.all().map(([k, v]) => [k, v.pid])),
      orchestrator_pid: process.pid,
    });
  }
}

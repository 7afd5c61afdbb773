import type { Role } from "../schema/catalog.ts";
import type { Event } from "../schema/events.ts";
import { AgentView } from "./agent-view.ts";
import { dismissDialog, exitEvent } from "./agent-screen.ts";
import { AgentPause } from "./agent-pause.ts";
import { AgentDeliveries, promptGates } from "./agent-delivery.ts";
import { CompletionPanel } from "./completion-panel.ts";
import type { ResolvedAgent } from "../providers/resolve.ts";
import { FirstStarts } from "./first-starts.ts";
import { CliVersions } from "./cli-versions.ts";
import { runProcess } from "../effects/process/run.ts";
import { AgentPanes } from "./agent-panes.ts";
import { announceLaunch, spawnAgent } from "./agent-launch.ts";
import { monotonicClock, systemClock, type Clock } from "../effects/clock.ts";
import type { Watched } from "./turns.ts";
import { PrestartPool, type Taken } from "./prestart-pool.ts";
import { nothing, produced, type Outcome } from "./outcome.ts";
import type { HeldPrestart } from "./prestart.ts";
import type { AgentPane, AgentRuntimeOptions, LaunchOptions, Started } from "./agent-types.ts";

export type { AgentRuntimeOptions, LaunchOptions, AgentPane, Started } from "./agent-types.ts";

const now = () => new Date().toISOString();

/** Agents as tmux panes: launch, deliver prompts (verified), show, kill; maps pane exits back to agents. */
export class AgentRuntime {
  /** which pane is whose, live or exited, and runtime.json */
  private readonly agents: AgentPanes;
  private readonly panel: CompletionPanel;
  /** which agents' panes are on screen */
  private readonly view: AgentView;
  /** the agents' CLIs are stopped (SIGSTOP) until the user lets the run go on past its budget */
  private readonly pauses: AgentPause;
  private readonly deliveries: AgentDeliveries;
  /** panes started ahead for the next phase (#15.3), until launch takes them over */
  private readonly pool: PrestartPool;
  /**
   * What every start of a CLI shares (spawnAgent): `first`, the second start of a CLI waits for
   * its first to get ready (#27); `versions`, the version of a CLI whose launch depends on it,
   * asked once per run.
   */
  private readonly starts: { first: FirstStarts; versions: CliVersions };

  readonly clock: Clock;
  readonly wallClock: Clock;

  constructor(readonly o: AgentRuntimeOptions) {
    this.clock = o.clock ?? monotonicClock;
    this.wallClock = o.wallClock ?? systemClock;
    this.starts = { first: new FirstStarts(o.tmux, o.log, this.clock), versions: new CliVersions(runProcess, o.log) };
    this.agents = new AgentPanes(o);
    this.pauses = new AgentPause(o.sessionDir, o.log);
    this.panel = new CompletionPanel(o);
    this.view = new AgentView(o);
    this.deliveries = new AgentDeliveries(o, (agent) => this.agents.get(agent), this.clock, this.wallClock);
    this.pool = new PrestartPool({
      spawn: (key, role, label, size) => spawnAgent(this.o, this.starts, key, role, label, {}, size),
      prepare: (key, s) => this.o.writer.prepare(s.pane.pane, promptGates(key, s.pane, this.o.mcp.tokens, true)),
      soloSize: () => this.o.layout.soloSize(),
      claim: (pane, label) => this.o.layout.relabelIfAlive(pane, label),
      close: async (pane) => {
        this.o.writer.forget(pane);
        await this.o.layout.kill(pane);
      },
      tokens: this.o.mcp.tokens,
      log: this.o.log,
      clock: this.clock,
    });
  }

  /** Start the agent's CLI (or take over its pre-start); its outcome: the conversation it starts, agent_active for a batch run. */
  async launch(agent: string, role: Role, label: string, lo: LaunchOptions = {}): Promise<Outcome> {
    const held = this.pauses.hold(() =>
      this.launch(agent, role, label, lo).catch((e) => {
        this.o.log(`launch of ${agent} after the pause failed: ${(e as Error).message}`);
        return nothing();
      }),
    );
    if (held) {
      this.o.log(`${agent}: launch held while the run is paused at its budget`, { event: "launch_held", agent });
      return held;
    }
    // a pre-started pane for this launch (its key's, else its role's) is taken over: its CLI is up, its MCP client connected
    const pre = await this.pool.take(agent, role, lo, label);
    if (pre) return this.adopt(agent, pre);
    // a relaunch takes the old pane's place on screen
    const old = this.agents.lastPane(agent);
    const slot = this.view.placeOf(old);
    await this.kill(agent);
    const started = await spawnAgent(this.o, this.starts, agent, role, label, lo);
    this.join(agent, started.pane);
    const events = announceLaunch(this.o, agent, started);
    if (lo.batchPrompt) events.push({ type: "agent_active", at: now(), agent });
    if (slot !== null) await this.view.replace(old, started.pane.pane, slot);
    this.persist();
    return produced(...events);
  }

  /**
   * The pane becomes the agent's. A launch that began before the run paused at its budget
   * finishes during the pause: its process is stopped now, like every other agent's.
   */
  private join(agent: string, pane: AgentPane): void {
    this.agents.add(agent, pane);
    if (this.pauses.paused && this.pauses.signal(agent, pane.pid, true))
      this.o.log(`${agent}: started while the run is paused at its budget; paused too`, { event: "agents_paused", agent, data: { agents: [agent] } });
  }

  /**
   * Pre-start an agent the next phase will launch (#15.3), parked in the hidden window, under its
   * key or, when only its role is known, by role (PrestartPool). Not while the run is paused at
   * its budget; a failure only costs the head start.
   */
  prestart(want: { agent: string | null; role: Role }): void {
    if (this.pauses.paused || (want.agent !== null && this.agents.has(want.agent))) return;
    this.pool.start(want);
  }

  /** Pre-starts not yet taken over. */
  prestarted(): HeldPrestart[] {
    return this.pool.list();
  }

  /** A pre-start no longer needed (the run went another way): its pane is closed, its token revoked. */
  async dropPrestart(id: string, why: string): Promise<void> {
    // an id that is also a live agent's key: that token is the agent's (its pre-start had none left)
    await this.pool.drop(id, why, this.agents.has(id));
  }

  /** The pre-started pane (labelled at its take-over) becomes the agent's; its token is the agent's already (issued to its key, or re-bound). */
  private async adopt(agent: string, pre: Taken): Promise<Outcome> {
    const s = pre.started;
    await this.kill(agent, { keepToken: true });
    this.join(agent, s.pane);
    const events = announceLaunch(this.o, agent, s, { ms: this.wallClock.now() - s.pane.launchedAt, byRole: pre.byRole, readyMs: pre.readyMs });
    this.persist();
    return produced(...events);
  }

  /** Whether a prompt or note went out to the agent after `at` (ISO): a turn end seen then is the task's before. */
  deliveredSince(agent: string, at: string): boolean {
    return this.deliveries.deliveredSince(agent, at);
  }

  /** The agent whose launch reported turn-end id `id` (its CLI's own hook), or null. */
  agentOfTurnId(id: string): string | null {
    return this.agents.agentOfTurnId(id);
  }

  /** Deliver a prompt file's one-line reference; its verdict is the outcome's event to come. */
  sendPrompt(agent: string, promptPath: string): Outcome {
    return this.deliver(agent, this.deliveries.promptText(promptPath));
  }

  notify(agent: string, text: string): Outcome {
    return this.deliver(agent, text);
  }

  /** Deliver `text` to the agent; `onDone` learns whether it was accepted (never throws). Held while paused. */
  deliver(agent: string, text: string, onDone?: (ok: boolean) => void): Outcome {
    return this.pauses.hold(() => this.deliver(agent, text, onDone)) ?? this.deliveries.deliver(agent, text, onDone);
  }

  /** The agents' panes beside the monitor, as many as fit; the others work on, parked. */
  show(agents: string[]): Promise<void> {
    return this.view.show(agents.flatMap((a) => (this.agents.get(a)?.pane ? [[a, this.agents.get(a)!.pane] as [string, string]] : [])));
  }

  /** A layout change that failed costs the view, not the run (AgentView); a gone tmux is raised. */
  layoutFailed(e: unknown): void {
    this.view.failed(e);
  }

  async kill(agent: string, o: { keepToken?: boolean } = {}): Promise<void> {
    // a held pre-start owns the agent's current token (the agent's earlier pane has none left)
    if (!o.keepToken && !this.pool.holds(agent)) this.o.mcp.tokens.revoke(agent);
    const deadPane = this.agents.takeDead(agent);
    if (deadPane) await this.o.layout.kill(deadPane);
    const a = this.agents.remove(agent);
    if (!a) return;
    await this.o.layout.kill(a.pane);
    this.persist();
  }

  /** The completion panel: its own exit is the user's decision being written, never an interruption. */
  showPanel(): Promise<void> {
    return this.panel.show();
  }

  closePanel(): Promise<void> {
    return this.panel.close();
  }

  /**
   * A pane died or vanished: an interruption unless agentmux closed it on purpose. Its last
   * screen (kept by remain-on-exit) and exit status go with its event (null: not an agent's, or closed on purpose).
   */
  async paneExited(pane: string, status?: string): Promise<Event | null> {
    if (this.panel.exited(pane)) return null;
    if (this.o.layout.isExpectedExit(pane)) return null;
    const agent = this.agents.exited(pane);
    if (!agent) return null;
    this.o.mcp.tokens.revoke(agent);
    this.persist();
    return exitEvent(this.o.tmux, this.clock, agent, pane, status);
  }

  /** Send the keys that dismiss the dialog the agent's CLI shows (headless: nobody can answer). */
  async dismissDialog(agent: string): Promise<void> {
    const a = this.agents.get(agent);
    if (a) await dismissDialog(this.o, agent, a);
  }

  /** Live agents whose MCP client reaches the endpoint through a stdio bridge process. */
  bridges(): { agent: string; pid: number }[] {
    const out: { agent: string; pid: number }[] = [];
    for (const [agent] of this.agents.all()) {
      const pid = this.o.mcp.tokens.link(agent)?.bridgePid;
      if (pid) out.push({ agent, pid });
    }
    return out;
  }

  /**
   * The agent's MCP connection died and cannot come back on its own (its CLI does not restart a
   * dead stdio server): the agent is handed to the orchestrator's restart path as an exited
   * pane — relaunched in its place with a fresh token and prompted again. Its event (null: no such agent now).
   */
  mcpLost(agent: string, why: string): Event | null {
    const a = this.agents.get(agent);
    if (!a) return null;
    this.o.log(`${agent}: ${why}; restarting the agent`);
    this.o.mcp.tokens.revoke(agent);
    return { type: "pane_exited", at: now(), agent, detail: why };
  }

  paneOf(agent: string): string | undefined {
    return this.agents.get(agent)?.pane;
  }

  resolvedOf(agent: string): ResolvedAgent | undefined {
    return this.agents.get(agent)?.resolved;
  }

  /**
   * Stop (SIGSTOP) or continue (SIGCONT) every agent's CLI: paused, an agent keeps its process,
   * screen and conversation, and spends nothing.
   */
  pause(stop: boolean): void {
    // a pre-started CLI is a start nobody may use: closed rather than stopped
    if (stop) for (const p of this.prestarted()) void this.dropPrestart(p.id, "the run is paused at its budget");
    this.pauses.pauseAll(stop, this.agents.all());
  }

  get isPaused(): boolean {
    return this.pauses.paused;
  }

  /** Interactive agents for the TurnWatcher (researchers run in batch and are not watched); none while paused. */
  watched(): Watched[] {
    if (this.pauses.paused) return [];
    return this.agents.watched();
  }

  livePanes(): Map<string, string> {
    return this.agents.livePanes();
  }

  persist(): void {
    this.agents.persist();
  }
}

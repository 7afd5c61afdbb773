import { proxyIn } from "../effects/proxy.ts";
import { countMatches } from "./screen-facts.ts";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../schema/config.ts";
import { ROLE_TOOLS, type Role } from "../schema/catalog.ts";
import type { Event } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import type { Layout } from "../effects/tmux/layout.ts";
import type { DeliverOptions, PaneWriter } from "../effects/tmux/deliver.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import { selectPane } from "../effects/tmux/ops.ts";
import { isGone } from "../effects/tmux/errors.ts";
import { deadPaneStatus, lastScreen, sendKeys } from "../effects/tmux/agent-ops.ts";
import { signalledBelow } from "../effects/process/tree.ts";
import { PauseGuard } from "./pause-guard.ts";
import { buildLaunch, writeLaunchFiles } from "../providers/launch.ts";
import type { AgentTokens } from "../mcp/identity.ts";
import { resolveRole, type ResolvedAgent } from "../providers/resolve.ts";
import { adapterFor } from "../providers/adapters/registry.ts";
import { FirstStarts } from "./first-starts.ts";
import { PROMPT_REFERENCE } from "../prompts/render.ts";
import { F } from "../protocol/paths.ts";
import { writeRuntime } from "../session/write.ts";
import type { Logger } from "../effects/log.ts";
import type { Watched } from "./turns.ts";
import { PrestartPool } from "./prestart-pool.ts";
import type { HeldPrestart } from "./prestart.ts";

export type AgentRuntimeOptions = {
  sessionDir: string;
  projectDir: string;
  workDir: string;
  sessionName: string;
  config: Config;
  tmux: Tmux;
  layout: Layout;
  writer: PaneWriter;
  controlPane: string;
  selfCommand: string[];
  log: Logger;
  push: (e: Event) => void;
  /** the orchestrator's current state (an agent's status decides whether a reminder still goes in) */
  state?: () => State;
  /** a delivery was accepted: the agent's turn begins (TurnWatcher) */
  onTurn?: (agent: string) => void;
  /** a delivery to the agent starts (true) or ends (false): a turn ending meanwhile is the previous task's (TurnWatcher) */
  onDelivering?: (agent: string, under: boolean) => void;
  /** when `agent` last called a tool (ToolCallTail): a call after a paste is an accepted prompt */
  lastToolCall?: (agent: string) => number;
  /** the agent is at its idle prompt with no turn under way (TurnWatcher) */
  isIdle?: (agent: string) => boolean;
  /** when the agent's last turn ended and its screen had settled (TurnWatcher, performance.now()) */
  turnEnd?: (agent: string) => { endedAt: number; settledAt: number } | null;
  /** added to every agent's environment (session/run-env.ts: AGENTMUX_PORT_OFFSET, …) */
  runEnv?: Record<string, string>;
  /** the run's MCP endpoint: each launch gets a fresh token for it (revoked when the agent goes) */
  mcp: { tokens: AgentTokens; url: () => string };
};

export type LaunchOptions = { batchPrompt?: string; provider?: string; conversation?: string };

type AgentPane = { pane: string; pid: number; role: Role; resolved: ResolvedAgent; prompted: boolean; env: Record<string, string>; launchedAt: number; capture: boolean; turnId: string };
export type Started = { pane: AgentPane; conversation?: { id: string; resume: boolean }; argv: string[] };

const now = () => new Date().toISOString();

/** The last warning or error line a CLI shows on its screen (a box's borders stripped), or null. */
export function cliWarning(screen: string): string | null {
  const lines = screen.split("\n").map((l) => l.replace(/^[\s│┃|╭╰]+|[\s│┃|╮╯]+$/g, "")).filter((l) => /(Security Warning|Warning|Error|error):/.test(l));
  return lines.at(-1)?.slice(0, 300) ?? null;
}

/**
 * An MCP connection that never came with an HTTP(S) proxy set: the likely cause, named (a CLI
 * that sends loopback through the proxy never reaches agentmux's endpoint; qwen did).
 */
function proxyHint(reason: string): string {
  const proxy = reason.includes("MCP server never became ready") ? proxyIn(process.env) : null;
  return proxy ? `; ${proxy.name}=${proxy.value} is set: a CLI that sends its loopback MCP connection through that proxy never reaches agentmux (set providers.<name>.mcp_transport: stdio, or add 127.0.0.1 to NO_PROXY)` : "";
}

/** Agents as tmux panes: launch, deliver prompts (verified), show, kill; maps pane exits back to agents. */
export class AgentRuntime {
  private readonly agents = new Map<string, AgentPane>();
  private readonly byPane = new Map<string, string>();
  /** panes whose program exited (kept by remain-on-exit, with their last screen) until relaunched */
  private readonly dead = new Map<string, string>();
  private panel: string | null = null;
  /** the agents' CLIs are stopped (SIGSTOP) until the user lets the run go on past its budget */
  private paused = false;
  /** continues the stopped CLIs should this orchestrator die while the run is paused */
  private readonly pauseGuard: PauseGuard;
  /** launches and deliveries asked for while paused, made in order when the run goes on */
  private held: (() => Promise<void> | void)[] = [];
  /** panes started ahead for the next phase (#15.3), until launch takes them over */
  private readonly pool: PrestartPool;
  /** when the last delivery to each agent started (Date.now()) */
  private readonly deliveredAt = new Map<string, number>();
  /** the second start of a CLI waits for its first to get ready (#27) */
  private readonly firstStarts: FirstStarts;

  constructor(readonly o: AgentRuntimeOptions) {
    this.firstStarts = new FirstStarts(o.tmux, o.log);
    this.pauseGuard = new PauseGuard(o.sessionDir);
    this.pool = new PrestartPool({
      spawn: (key, role, label, size) => this.spawn(key, role, label, {}, size),
      prepare: (key, s) => this.o.writer.prepare(s.pane.pane, this.firstOptions(key, s.pane)),
      soloSize: () => this.o.layout.soloSize(),
      claim: (pane, label) => this.o.layout.relabelIfAlive(pane, label),
      close: async (pane) => {
        this.o.writer.forget(pane);
        await this.o.layout.kill(pane);
      },
      tokens: this.o.mcp.tokens,
      log: this.o.log,
    });
  }

  async launch(agent: string, role: Role, label: string, lo: LaunchOptions = {}): Promise<void> {
    if (this.paused) {
      this.o.log(`${agent}: launch held while the run is paused at its budget`, { event: "launch_held", agent });
      this.held.push(() => this.launch(agent, role, label, lo).catch((e) => this.o.log(`launch of ${agent} after the pause failed: ${(e as Error).message}`)));
      return;
    }
    // a pre-started pane for this launch (its key's, else its role's) is taken over: its CLI is up, its MCP client connected
    const pre = await this.pool.take(agent, role, lo, label);
    if (pre) return this.adopt(agent, pre.started, pre.byRole);
    // a relaunch takes the old pane's place on screen
    const old = this.agents.get(agent)?.pane ?? this.dead.get(agent);
    const slot = old ? this.o.layout.visiblePanes().indexOf(old) : -1;
    await this.kill(agent);
    const started = await this.spawn(agent, role, label, lo);
    this.join(agent, started.pane);
    this.announce(agent, started);
    if (lo.batchPrompt) this.o.push({ type: "agent_active", at: now(), agent });
    if (slot >= 0) {
      const visible = this.o.layout.visiblePanes().filter((p) => p !== old);
      visible.splice(Math.min(slot, visible.length), 0, started.pane.pane);
      await this.o.layout.show(visible).catch((e) => this.layoutFailed(e));
    }
    this.persist();
  }

  /**
   * The pane becomes the agent's. A launch that began before the run paused at its budget
   * finishes during the pause: its process is stopped now, like every other agent's.
   */
  private join(agent: string, pane: AgentPane): void {
    this.agents.set(agent, pane);
    this.byPane.set(pane.pane, agent);
    if (this.paused && this.signal(agent, pane.pid, true)) this.o.log(`${agent}: started while the run is paused at its budget; paused too`, { event: "agents_paused", agent, data: { agents: [agent] } });
  }

  /**
   * SIGSTOP or SIGCONT the agent's CLI and everything it runs: the processes below the pane's own
   * shell, never the shell (tmux would continue it and its group at once); false, logged, when it
   * failed.
   */
  private signal(agent: string, pid: number, stop: boolean): boolean {
    try {
      const pids = signalledBelow(pid, stop ? "SIGSTOP" : "SIGCONT");
      if (stop) this.pauseGuard.stopped(pids);
      return true;
    } catch (e) {
      this.o.log(`could not ${stop ? "pause" : "continue"} ${agent} (pid ${pid}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { level: "warn", event: stop ? "agents_paused" : "agents_continued", agent, error: (e as Error).message });
      return false;
    }
  }

  /** Start the agent's CLI in a new parked pane with a fresh token (not yet an agent of the run). */
  private async spawn(agent: string, role: Role, label: string, lo: LaunchOptions, size?: { width: number; height: number }): Promise<Started> {
    const resolved = resolveRole(this.o.config, role, lo.provider);
    const conv = resolved.provider.conversation;
    let conversation: { id: string; resume: boolean } | undefined;
    if (conv && !lo.batchPrompt) {
      if (lo.conversation) conversation = { id: lo.conversation, resume: true };
      else if (conv.start.length) conversation = { id: crypto.randomUUID(), resume: false };
    }
    const token = this.o.mcp.tokens.issue(agent, role, this.o.workDir);
    // the CLI's own turn-end hook reports this id (TurnEndTail → agentOfTurnId)
    const turnId = crypto.randomUUID();
    const spec = buildLaunch(resolved, {
      turnEnd: { id: turnId, file: join(this.o.sessionDir, F.turnEnds) },
      env: process.env,
      sessionDir: this.o.sessionDir,
      projectDir: this.o.projectDir,
      workDir: this.o.workDir,
      agentKey: agent,
      selfCommand: this.o.selfCommand,
      mcp: { url: this.o.mcp.url(), token },
      ...(lo.batchPrompt ? { batchPrompt: join(this.o.sessionDir, lo.batchPrompt) } : {}),
      ...(conversation ? { conversation } : {}),
    });
    writeLaunchFiles(spec);
    const first = resolved.provider.command === "@self" ? null : await this.firstStarts.before(resolved.provider.command, agent);
    // the env (with the token for CLIs that read it there) reaches the pane through a 0600 file, never argv
    const command = spec.stdinFile ? ["sh", "-c", 'exec "$@" < "$0"', spec.stdinFile, ...spec.argv] : spec.argv;
    const exitFile = join(this.o.sessionDir, F.paneExits);
    const { pane, pid } = await this.o.layout.createPane({ command, env: { ...this.o.runEnv, ...spec.env }, cwd: spec.cwd, label, exitFile, ...(size ? { size } : {}) });
    first?.(pane, resolved.provider.ready, resolved.provider.trust);
    // the token is this pane's: requests with it must come from its process tree (mcp/peer.ts)
    this.o.mcp.tokens.bindProcess(agent, pid);
    const capture = !!conv && conv.capture !== "none" && !conversation && !lo.batchPrompt;
    return {
      pane: { pane, pid, role, resolved, prompted: false, env: { ...resolved.provider.env, ...spec.env }, launchedAt: Date.now(), capture, turnId },
      ...(conversation ? { conversation } : {}),
      argv: spec.argv,
    };
  }

  /** The agent_launched record (bench/pipeline.ts reads "launched <agent> (…) in %N") and the conversation it starts. */
  private announce(agent: string, s: Started, prestartedMs?: number, byRole?: string | null): void {
    const { resolved, pane } = s.pane;
    const c = s.conversation;
    const note = prestartedMs === undefined ? "" : ` (pre-started ${byRole ? `by role as ${byRole} ` : ""}${prestartedMs} ms before)`;
    this.o.log(`launched ${agent} (${resolved.providerName}${resolved.model ? "/" + resolved.model : ""}${c ? `, conversation ${c.id}${c.resume ? " resumed" : ""}` : ""}) in ${pane}${note}: ${s.argv.join(" ").slice(0, 300)}`, {
      event: "agent_launched",
      agent,
      pane,
      data: { provider: resolved.providerName, model: resolved.model, argv: s.argv, ...(c ? { conversation: c.id, resumed: c.resume } : {}), ...(prestartedMs === undefined ? {} : { prestarted_ms: prestartedMs }), ...(byRole ? { prestarted_as: byRole } : {}) },
    });
    if (c && !c.resume) this.o.push({ type: "conversation_captured", at: now(), agent, id: c.id });
  }

  /**
   * Pre-start an agent the next phase will launch (#15.3), parked in the hidden window, under its
   * key or, when only its role is known, by role (PrestartPool). Not while the run is paused at
   * its budget; a failure only costs the head start.
   */
  prestart(want: { agent: string | null; role: Role }): void {
    if (this.paused || (want.agent !== null && this.agents.has(want.agent))) return;
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

  /** What a first prompt to this pane waits for: the ready gate, trust dialogs, the MCP-ready gate. */
  private firstOptions(agent: string, a: AgentPane): DeliverOptions {
    const needsMcp = ROLE_TOOLS[a.role].length > 0 && a.resolved.provider.mcp !== "none";
    const tokens = this.o.mcp.tokens;
    const p = a.resolved.provider;
    return { submit: p.submit, ready: p.ready, trust: p.trust, first: true, ...(needsMcp ? { waitFirst: () => tokens.ready(agent) } : {}) };
  }

  /** The pre-started pane (labelled at its take-over) becomes the agent's; its token is the agent's already (issued to its key, or re-bound). */
  private async adopt(agent: string, s: Started, byRole: string | null): Promise<void> {
    await this.kill(agent, { keepToken: true });
    this.join(agent, s.pane);
    this.announce(agent, s, Date.now() - s.pane.launchedAt, byRole);
    this.persist();
  }

  /** Whether a prompt or note went out to the agent after `at` (ISO): a turn end seen then is the task's before. */
  deliveredSince(agent: string, at: string): boolean {
    const t = Date.parse(at);
    return Number.isFinite(t) && (this.deliveredAt.get(agent) ?? 0) > t;
  }

  /** The agent whose launch reported turn-end id `id` (its CLI's own hook), or null. */
  agentOfTurnId(id: string): string | null {
    for (const [agent, a] of this.agents) if (a.turnId === id) return agent;
    return null;
  }

  /** Deliver a prompt file's one-line reference; the result comes back as an event. */
  sendPrompt(agent: string, promptPath: string): void {
    this.deliver(agent, PROMPT_REFERENCE(join(this.o.sessionDir, promptPath)));
  }

  notify(agent: string, text: string): void {
    this.deliver(agent, text);
  }

  /** Deliver `text` to the agent; resolves with whether it was accepted (never throws). */
  deliver(agent: string, text: string, onDone?: (ok: boolean) => void): void {
    if (this.paused) {
      this.held.push(() => this.deliver(agent, text, onDone));
      return;
    }
    const a = this.agents.get(agent);
    if (!a) {
      this.o.log(`cannot deliver to ${agent}: it has no pane`);
      onDone?.(false);
      return;
    }
    const first = !a.prompted;
    a.prompted = true;
    const needsMcp = ROLE_TOOLS[a.role].length > 0 && a.resolved.provider.mcp !== "none";
    const tokens = this.o.mcp.tokens;
    let pastedAt = 0;
    const limits = a.resolved.provider.limits.map((l) => new RegExp(l, "m"));
    const acted = () => pastedAt > 0 && (this.o.lastToolCall?.(agent) ?? 0) > pastedAt;
    this.deliveredAt.set(agent, Date.now());
    this.o.onDelivering?.(agent, true);
    this.o.writer
      .deliver(a.pane, text, {
        submit: a.resolved.provider.submit,
        ready: a.resolved.provider.ready,
        trust: a.resolved.provider.trust,
        first,
        // the MCP-ready gate: the endpoint has seen this agent's initialize and tools/list
        ...(first && needsMcp ? { waitFirst: () => tokens.ready(agent) } : {}),
        // a tool call after the paste means the agent took the prompt (and acted on it)
        onPasted: () => void (pastedAt = performance.now()),
        acted,
        // a CLI out of quota answers at once with its limit screen, never busy: that took the prompt
        answered: (pasted, screen) => limits.some((re) => countMatches(re, screen) > countMatches(re, pasted)),
      })
      .finally(() => this.o.onDelivering?.(agent, false))
      .then((r) => {
        // the agent may be gone already because it took the prompt and finished at once (its
        // submit reaches the in-process endpoint within milliseconds): the delivery still happened
        // (its pane closed under the delivery's last look: a tool call after the paste says it took it)
        if (this.agents.get(agent)?.pane !== a.pane) return onDone?.(r.ok || acted());
        if (r.ok && first && needsMcp) {
          const link = tokens.link(agent);
          if (link?.readyAt) this.o.log(`${agent}: MCP ready ${link.readyAt - link.issuedAt} ms after launch (initialize after ${(link.initializedAt ?? link.readyAt) - link.issuedAt} ms)${link.bridgePid ? ` (stdio bridge pid ${link.bridgePid})` : ""}`);
        }
        if (r.ok) {
          this.o.onTurn?.(agent);
          this.o.push({ type: "agent_active", at: now(), agent });
          if (a.capture) this.captureConversation(agent, a, text);
        } else if (r.exited) {
          this.o.log(`delivery to ${agent} stopped: ${r.reason} (its exit is handled as such)`, { level: "warn", event: "delivery_failed", agent, pane: a.pane, data: { reason: r.reason, exited: true } });
        } else {
          const fix = this.o.tmux.attachCommand(this.o.sessionName, { pane: a.pane });
          this.o.log(`delivery to ${agent} failed: ${r.reason}\n${r.screen}`, { level: "warn", event: "delivery_failed", agent, pane: a.pane, data: { reason: r.reason } });
          // the CLI's own words say why (gemini: "Security Warning: Skipping … settings file …")
          const said = cliWarning(r.screen);
          this.o.push({ type: "agent_stuck", at: now(), agent, reason: `${r.reason}${said ? `; the CLI says: ${said}` : ""}${proxyHint(r.reason)}; to fix by hand: ${fix}` });
        }
        onDone?.(r.ok);
      })
      .catch((e) => this.o.log(`delivery to ${agent} crashed: ${(e as Error).message}`, { level: "error", event: "delivery_failed", agent, error: (e as Error).stack }));
  }

  /** A CLI that picks its own conversation id (codex, agy): found by its adapter in the CLI's files, which name our prompt, for a few seconds. */
  private captureConversation(agent: string, a: AgentPane, text: string): void {
    a.capture = false;
    const kind = a.resolved.provider.conversation?.capture ?? "none";
    const find = adapterFor(kind)?.captureConversation;
    if (!find) return;
    let tries = 0;
    const look = () => {
      if (this.agents.get(agent) !== a) return;
      const id = find({ env: a.env, sinceMs: a.launchedAt, promptLine: text });
      if (id) return this.o.push({ type: "conversation_captured", at: now(), agent, id });
      if (++tries < 40) setTimeout(look, 500);
      else this.o.log(`could not find ${agent}'s ${kind} conversation id: a restart will start a fresh conversation`);
    };
    setTimeout(look, 300);
  }

  /** The agents' panes beside the monitor, as many as fit; the others work on, parked. */
  async show(agents: string[]): Promise<void> {
    const live = agents.filter((a) => this.agents.get(a)?.pane);
    let shown: string[];
    try {
      shown = await this.o.layout.show(live.map((a) => this.agents.get(a)!.pane));
    } catch (e) {
      return this.layoutFailed(e);
    }
    if (shown.length < live.length) {
      const parked = live.slice(shown.length);
      this.o.log(`showing ${shown.length} of ${live.length} agents, as many as fit one above the other; ${parked.join(", ")} work on parked (select one in the monitor and press Enter to see it)`, { data: { shown: live.slice(0, shown.length), parked } });
    }
  }

  /**
   * A layout change that failed costs the view, not the run: the agents work on and `agentmux
   * attach` shows them. A tmux server or session that is gone is not a layout problem: it is raised.
   */
  layoutFailed(e: unknown): void {
    if (isGone(e)) throw e;
    this.o.log(`could not lay out the agents' panes: ${(e as Error).message}; the agents work on (agentmux attach shows the session)`, { level: "warn" });
  }

  async kill(agent: string, o: { keepToken?: boolean } = {}): Promise<void> {
    // a held pre-start owns the agent's current token (the agent's earlier pane has none left)
    if (!o.keepToken && !this.pool.holds(agent)) this.o.mcp.tokens.revoke(agent);
    const deadPane = this.dead.get(agent);
    if (deadPane) {
      this.dead.delete(agent);
      await this.o.layout.kill(deadPane);
    }
    const a = this.agents.get(agent);
    if (!a) return;
    this.agents.delete(agent);
    this.byPane.delete(a.pane);
    await this.o.layout.kill(a.pane);
    this.persist();
  }

  /** The completion panel: its own exit is the user's decision being written, never an interruption. */
  async showPanel(): Promise<void> {
    if (this.panel && (await this.o.layout.isAlive(this.panel))) {
      await this.o.layout.show([this.panel]);
      await selectPane(this.o.tmux, this.panel).catch(() => {});
      return;
    }
    const { pane } = await this.o.layout.createPane({
      command: [...this.o.selfCommand, "panel", this.o.sessionDir],
      env: {},
      cwd: this.o.workDir,
      label: "[completion] approve or request changes",
    });
    this.panel = pane;
    await this.o.layout.show([pane]);
    // the decision is made here: give the panel the keyboard
    await selectPane(this.o.tmux, pane).catch(() => {});
  }

  async closePanel(): Promise<void> {
    if (!this.panel) return;
    const pane = this.panel;
    this.panel = null;
    await this.o.layout.kill(pane);
  }

  /**
   * A pane died or vanished: an interruption unless agentmux closed it on purpose. Its last
   * screen (kept by remain-on-exit) and exit status go with the event.
   */
  async paneExited(pane: string, status?: string): Promise<void> {
    if (pane === this.panel) {
      // the panel exits once the decision file is written, or when the user quits it (it can be
      // shown again): expected, never an interruption; its dead pane goes
      this.panel = null;
      void this.o.layout.kill(pane).catch(() => {});
      return;
    }
    if (this.o.layout.isExpectedExit(pane)) return;
    const agent = this.byPane.get(pane);
    if (!agent) return;
    this.o.mcp.tokens.revoke(agent);
    this.agents.delete(agent);
    this.byPane.delete(pane);
    this.dead.set(agent, pane);
    this.persist();
    const text = await lastScreen(this.o.tmux, pane);
    const screen = text === null ? [] : text.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim()).slice(-20);
    let exit = status ?? "";
    for (let i = 0; !exit && text !== null && i < 10; i++) {
      // tmux 3.3a can leave pane_dead_status empty for a moment after the exit
      exit = await deadPaneStatus(this.o.tmux, pane);
      if (!exit) await Bun.sleep(50);
    }
    this.o.push({ type: "pane_exited", at: now(), agent, ...(exit ? { exit_status: exit } : {}), ...(screen.length ? { screen } : {}), ...(text === null ? { detail: "the pane is gone" } : {}) });
  }

  /** Send the keys that dismiss the dialog the agent's CLI shows (headless: nobody can answer). */
  async dismissDialog(agent: string): Promise<void> {
    const a = this.agents.get(agent);
    if (!a) return;
    const screen = (await lastScreen(this.o.tmux, a.pane)) ?? "";
    const dialog = a.resolved.provider.dialogs.find((d) => new RegExp(d.detect, "m").test(screen)) ?? a.resolved.provider.dialogs[0];
    const keys = dialog?.dismiss ?? ["Escape"];
    this.o.log(`dismissing ${agent}'s dialog with ${keys.join(" ")}`, { event: "dialog_answered", agent, pane: a.pane, data: { keys } });
    await sendKeys(this.o.tmux, a.pane, keys).catch((e) => this.o.log(`could not dismiss ${agent}'s dialog: ${(e as Error).message}`));
  }

  /** Live agents whose MCP client reaches the endpoint through a stdio bridge process. */
  bridges(): { agent: string; pid: number }[] {
    const out: { agent: string; pid: number }[] = [];
    for (const agent of this.agents.keys()) {
      const pid = this.o.mcp.tokens.link(agent)?.bridgePid;
      if (pid) out.push({ agent, pid });
    }
    return out;
  }

  /**
   * The agent's MCP connection died and cannot come back on its own (its CLI does not restart a
   * dead stdio server): the agent is handed to the orchestrator's restart path as an exited
   * pane — relaunched in its place with a fresh token and prompted again.
   */
  mcpLost(agent: string, why: string): void {
    const a = this.agents.get(agent);
    if (!a) return;
    this.o.log(`${agent}: ${why}; restarting the agent`);
    this.o.mcp.tokens.revoke(agent);
    this.o.push({ type: "pane_exited", at: now(), agent, detail: why });
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
    this.paused = stop;
    // a pre-started CLI is a start nobody may use: closed rather than stopped
    if (stop) for (const p of this.prestarted()) void this.dropPrestart(p.id, "the run is paused at its budget");
    for (const [agent, v] of this.agents) this.signal(agent, v.pid, stop);
    if (!stop) this.pauseGuard.continued();
    const held = stop ? [] : this.held.splice(0);
    this.o.log(`${stop ? "paused" : "continued"} ${this.agents.size} agent(s)${held.length ? `; ${held.length} held launch(es) and prompt(s) now` : ""}`, { event: stop ? "agents_paused" : "agents_continued", data: { agents: [...this.agents.keys()], ...(stop ? {} : { held: held.length }) } });
    if (stop) return;
    // in order: a held prompt goes to the pane its held launch makes
    void (async () => {
      for (const run of held) await run();
    })();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Interactive agents for the TurnWatcher (researchers run in batch and are not watched); none while paused. */
  watched(): Watched[] {
    if (this.paused) return [];
    return [...this.agents]
      .filter(([, v]) => v.role !== "code-researcher" && v.role !== "web-researcher")
      .map(([agent, v]) => ({ agent, pane: v.pane, provider: v.resolved.provider }));
  }

  livePanes(): Map<string, string> {
    return new Map([...this.agents].map(([k, v]) => [k, v.pane]));
  }

  persist(): void {
    writeRuntime(this.o.sessionDir, {
      tmux_session: this.o.sessionName,
      tmux_socket: this.o.tmux.socket,
      panes: Object.fromEntries([...this.agents].map(([k, v]) => [k, v.pane])),
      control_pane: this.o.controlPane,
      visible: this.o.layout.visiblePanes(),
      pids: Object.fromEntries([...this.agents].map(([k, v]) => [k, v.pid])),
      orchestrator_pid: process.pid,
    });
  }
}

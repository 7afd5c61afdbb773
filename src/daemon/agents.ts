import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../schema/config.ts";
import { ROLE_TOOLS, type Role } from "../schema/catalog.ts";
import type { Event } from "../schema/events.ts";
import type { Layout } from "../effects/tmux/layout.ts";
import type { PaneWriter } from "../effects/tmux/deliver.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import { selectPane } from "../effects/tmux/ops.ts";
import { buildLaunch, writeLaunchFiles } from "../providers/launch.ts";
import { resolveRole, type ResolvedAgent } from "../providers/resolve.ts";
import { PROMPT_REFERENCE } from "../prompts/render.ts";
import { F, mcpReadyFile } from "../session/paths.ts";
import { writeRuntime } from "../session/write.ts";
import type { Logger } from "../effects/log.ts";

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
};

type AgentPane = { pane: string; pid: number; role: Role; resolved: ResolvedAgent; prompted: boolean };

const now = () => new Date().toISOString();

/** Agents as tmux panes: launch, deliver prompts (verified), show, kill; maps pane exits back to agents. */
export class AgentRuntime {
  private readonly agents = new Map<string, AgentPane>();
  private readonly byPane = new Map<string, string>();
  private panel: string | null = null;

  constructor(private readonly o: AgentRuntimeOptions) {}

  async launch(agent: string, role: Role, label: string, batchPrompt?: string): Promise<void> {
    await this.kill(agent);
    const resolved = resolveRole(this.o.config, role);
    rmSync(join(this.o.sessionDir, mcpReadyFile(agent)), { force: true });
    const spec = buildLaunch(resolved, {
      sessionDir: this.o.sessionDir,
      projectDir: this.o.projectDir,
      workDir: this.o.workDir,
      agentKey: agent,
      selfCommand: this.o.selfCommand,
      ...(batchPrompt ? { batchPrompt: join(this.o.sessionDir, batchPrompt) } : {}),
    });
    writeLaunchFiles(spec);
    const command = spec.stdinFile ? ["sh", "-c", 'exec "$@" < "$0"', spec.stdinFile, ...spec.argv] : spec.argv;
    const exitFile = join(this.o.sessionDir, F.paneExits);
    const { pane, pid } = await this.o.layout.createPane({ command, env: spec.env, cwd: spec.cwd, label, exitFile });
    this.agents.set(agent, { pane, pid, role, resolved, prompted: false });
    this.byPane.set(pane, agent);
    this.o.log(`launched ${agent} (${resolved.providerName}${resolved.model ? "/" + resolved.model : ""}) in ${pane}: ${spec.argv.join(" ").slice(0, 300)}`);
    if (batchPrompt) this.o.push({ type: "agent_active", at: now(), agent });
    this.persist();
  }

  /** Deliver a prompt file's one-line reference; the result comes back as an event. */
  sendPrompt(agent: string, promptPath: string): void {
    this.deliver(agent, PROMPT_REFERENCE(join(this.o.sessionDir, promptPath)));
  }

  notify(agent: string, text: string): void {
    this.deliver(agent, text);
  }

  private deliver(agent: string, text: string): void {
    const a = this.agents.get(agent);
    if (!a) {
      this.o.log(`cannot deliver to ${agent}: it has no pane`);
      return;
    }
    const first = !a.prompted;
    a.prompted = true;
    const needsMcp = ROLE_TOOLS[a.role].length > 0 && a.resolved.provider.mcp !== "none";
    const readyFile = join(this.o.sessionDir, mcpReadyFile(agent));
    this.o.writer
      .deliver(a.pane, text, {
        submit: a.resolved.provider.submit,
        ready: a.resolved.provider.ready,
        trust: a.resolved.provider.trust,
        first,
        ...(first && needsMcp ? { waitFirst: () => existsSync(readyFile) } : {}),
      })
      .then((r) => {
        if (this.agents.get(agent)?.pane !== a.pane) return;
        if (r.ok) this.o.push({ type: "agent_active", at: now(), agent });
        else {
          const fix = this.o.tmux.attachCommand(this.o.sessionName, { pane: a.pane });
          this.o.log(`delivery to ${agent} failed: ${r.reason}\n${r.screen}`);
          this.o.push({ type: "agent_stuck", at: now(), agent, reason: `${r.reason}; to fix by hand: ${fix}` });
        }
      })
      .catch((e) => this.o.log(`delivery to ${agent} crashed: ${(e as Error).stack}`));
  }

  async show(agents: string[]): Promise<void> {
    const panes = agents.map((a) => this.agents.get(a)?.pane).filter((p): p is string => !!p);
    await this.o.layout.show(panes);
  }

  async kill(agent: string): Promise<void> {
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

  /** A pane died or vanished: an interruption unless agentmux closed it on purpose. */
  paneExited(pane: string, detail?: string): void {
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
    this.agents.delete(agent);
    this.byPane.delete(pane);
    this.persist();
    this.o.push({ type: "pane_exited", at: now(), agent, ...(detail ? { detail } : {}) });
  }

  paneOf(agent: string): string | undefined {
    return this.agents.get(agent)?.pane;
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

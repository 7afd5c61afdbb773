import * as fs from "node:fs";
import { PROMPT_REFERENCE } from "../../src/prompts/render.ts";
import { join } from "node:path";
import git from "isomorphic-git";
import { writeJsonAtomic, writeFileAtomic } from "../../src/effects/fs/atomic.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { loadSealKey } from "../../src/bus/tool-seal.ts";
import { McpEndpoint } from "../../src/mcp/endpoint.ts";
import { ToolEventLog } from "../../src/mcp/events.ts";
import { AgentTokens } from "../../src/mcp/identity.ts";
import { processTreeCheck } from "../../src/mcp/peer.ts";
import { agentHandlers } from "../../src/mcp/server.ts";
import type { Phase, Role } from "../../src/schema/catalog.ts";
import { readState } from "../../src/session/read.ts";
import { ToolEventLine } from "../../src/schema/tool-events.ts";
import { F } from "../../src/protocol/paths.ts";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir, REPO_ROOT } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

export const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
const MAIN = join(REPO_ROOT, "src", "main.ts");

/**
 * One simulated-agent world: a real git repo (one commit), a session folder with state.json
 * and requirements.md, a private tmux server, the run's real MCP endpoint, and helpers to
 * launch `agentmux sim-agent` in a pane connected to it through its generated MCP config.
 */
export class SimWorld {
  readonly tmux = new Tmux(privateSocket());
  private panes = 0;
  private readonly exitFiles = new Map<string, string>();
  /** the run's MCP endpoint, as the orchestrator would host it (state from state.json) */
  readonly endpoint: McpEndpoint;
  readonly tokens = new AgentTokens();
  private constructor(
    readonly projectDir: string,
    readonly sessionDir: string,
  ) {
    const host = { sessionDir, projectDir, state: () => readState(sessionDir), events: new ToolEventLog(sessionDir, loadSealKey(sessionDir)), log: () => {} };
    // as the orchestrator hosts it: a token is accepted only from the process tree of its agent's pane
    this.endpoint = McpEndpoint.start({ tokens: this.tokens, handlers: (link) => agentHandlers(host, link), log: () => {}, peer: processTreeCheck() });
  }

  static async create(request = "Add a greeting helper"): Promise<SimWorld> {
    const projectDir = makeTmpDir("amx-sim-");
    await git.init({ fs, dir: projectDir, defaultBranch: "main" });
    fs.writeFileSync(join(projectDir, "README.md"), "# demo\n");
    fs.writeFileSync(join(projectDir, ".gitignore"), ".agentmux/\n");
    await git.add({ fs, dir: projectDir, filepath: ["README.md", ".gitignore"] });
    await git.commit({ fs, dir: projectDir, message: "init", author: { name: "t", email: "t@example.com" } });
    const sessionDir = join(projectDir, ".agentmux", ".sessions", "20260101-000000-greeting");
    fs.mkdirSync(sessionDir, { recursive: true });
    const w = new SimWorld(projectDir, sessionDir);
    w.write(F.requirements, `# Requirements\n\n${request}\n`);
    w.setState("architecting");
    return w;
  }

  setState(phase: Phase, over: Record<string, unknown> = {}): void {
    writeJsonAtomic(join(this.sessionDir, F.state), {
      phase,
      last_event: "feature_created",
      product_manager: false,
      subplan_count: 1,
      completed_subplans: [],
      review_iteration: 0,
      implementation_group_total: 1,
      implementation_group_index: 1,
      implementation_group_mode: "serial",
      implementation_active_plan_ids: ["1"],
      implementation_completed_group_ids: [],
      updated_at: new Date().toISOString(),
      updated_by: "test",
      feature_dir: this.sessionDir,
      session_name: "agentmux-test",
      project_dir: this.projectDir,
      ...over,
    });
  }

  path(rel: string): string {
    return join(this.sessionDir, rel);
  }
  write(rel: string, content: string): string {
    writeFileAtomic(this.path(rel), content);
    return this.path(rel);
  }
  read(rel: string): string {
    return fs.readFileSync(this.path(rel), "utf8");
  }
  has(rel: string): boolean {
    return fs.existsSync(this.path(rel));
  }
  /** Write a prompt file and return the one-line reference an orchestrator would deliver. */
  prompt(rel: string, body = "Do your task.\n"): string {
    return PROMPT_REFERENCE(this.write(rel, body));
  }

  toolEvents(): ToolEventLine[] {
    if (!this.has(F.toolEvents)) return [];
    return this.read(F.toolEvents)
      .split("\n")
      .filter(Boolean)
      .map((l) => ToolEventLine.parse(JSON.parse(l)));
  }

  /**
   * The MCP config agentmux writes for an agent: the endpoint's URL with a fresh token for
   * (agent, role) — or, with `stdio`, `agentmux mcp-server` (source or `binary`) bridging to it.
   */
  mcpConfig(role: Role, agent: string = role, o: { binary?: string; stdio?: boolean } = {}): string {
    const file = this.path(`.runtime/mcp-${agent}.json`);
    const token = this.tokens.issue(agent, role, this.projectDir);
    const server = o.stdio
      ? {
          type: "stdio",
          command: o.binary ?? BUN,
          args: o.binary ? ["mcp-server"] : [MAIN, "mcp-server"],
          env: { AGENTMUX_MCP_URL: this.endpoint.url, AGENTMUX_MCP_TOKEN: token },
        }
      : { type: "http", url: this.endpoint.url, headers: { Authorization: `Bearer ${token}` } };
    writeJsonAtomic(file, { mcpServers: { agentmux: server } });
    return file;
  }

  /** Start `agentmux sim-agent` in a new pane (cwd = project); returns the pane id. */
  async launch(
    role: Role,
    opts: { scenario?: string; agent?: string; mcp?: boolean; width?: number; thinkMs?: number; binary?: string; stdio?: boolean } = {},
  ): Promise<string> {
    const agent = opts.agent ?? role;
    const env = {
      AGENTMUX_SESSION_DIR: this.sessionDir,
      AGENTMUX_PROJECT_DIR: this.projectDir,
      AGENTMUX_ROLE: role,
      AGENTMUX_AGENT: agent,
      AGENTMUX_SIM_SCENARIO: opts.scenario ?? "",
      AGENTMUX_SIM_THINK_MS: String(opts.thinkMs ?? 0),
    };
    const exitFile = this.path(`.runtime/exit-${this.panes}`);
    const cli = opts.binary ? [opts.binary] : [BUN, MAIN];
    const sim = [...cli, "sim-agent", ...(opts.mcp === false ? [] : ["--mcp-config", this.mcpConfig(role, agent, { binary: opts.binary, stdio: opts.stdio })])];
    const argv = ["sh", "-c", '"$@"; echo $? > "$0.tmp" && mv "$0.tmp" "$0"', exitFile, ...sim];
    const envArgs = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    const size = ["-x", String(opts.width ?? 160), "-y", "45"];
    let pane: string;
    if (this.panes++ === 0) {
      pane = await this.tmux.run(["new-session", "-d", "-s", "sim", ...size, "-c", this.projectDir, ...envArgs, "-P", "-F", "#{pane_id}", ...argv]);
      await this.tmux.run(["set-option", "-g", "remain-on-exit", "on"]);
    } else {
      pane = await this.tmux.run(["new-window", "-d", "-t", "sim", "-c", this.projectDir, ...envArgs, "-P", "-F", "#{pane_id}", ...argv]);
    }
    this.exitFiles.set(pane, exitFile);
    // the token is this pane's, as AgentRuntime binds it at launch
    if (opts.mcp !== false) this.tokens.bindProcess(agent, Number(await this.tmux.run(["display-message", "-p", "-t", pane, "#{pane_pid}"])));
    return pane;
  }

  async screen(pane: string): Promise<string> {
    return this.tmux.run(["capture-pane", "-p", "-J", "-t", pane]);
  }
  async title(pane: string): Promise<string> {
    return this.tmux.run(["display-message", "-p", "-t", pane, "#{pane_title}"]);
  }
  /**
   * The sim's exit status once it has exited, else null. A shell wrapper records it: tmux 3.3a
   * sometimes leaves an exited pane process unreaped for seconds, so #{pane_dead_status} lags.
   */
  async exitStatus(pane: string): Promise<number | null> {
    const file = this.exitFiles.get(pane);
    if (!file || !fs.existsSync(file)) return null;
    const text = fs.readFileSync(file, "utf8").trim();
    return text ? Number(text) : null;
  }

  async waitScreen(pane: string, what: string | RegExp, timeoutMs = 15000): Promise<string> {
    return waitFor(
      `pane ${pane} to show ${what}`,
      async () => {
        const s = await this.screen(pane);
        return (typeof what === "string" ? s.includes(what) : what.test(s)) ? s : null;
      },
      { timeoutMs },
    );
  }

  /** Bracketed paste through the tmux runner (load-buffer + paste-buffer -p -d). */
  async paste(pane: string, text: string): Promise<void> {
    const buf = `amx-sim-${Math.random().toString(36).slice(2)}`;
    await this.tmux.run(["load-buffer", "-b", buf, "-"], text);
    await this.tmux.run(["paste-buffer", "-p", "-d", "-b", buf, "-t", pane]);
  }
  /** Paste and Enter in ONE tmux invocation: the tightest gap possible (real-cli-behaviour "pasteone"). */
  async pasteOne(pane: string, text: string): Promise<void> {
    const buf = `amx-sim-${Math.random().toString(36).slice(2)}`;
    await this.tmux.run(["load-buffer", "-b", buf, "-"], text);
    await this.tmux.run(["paste-buffer", "-p", "-d", "-b", buf, "-t", pane, ";", "send-keys", "-t", pane, "Enter"]);
  }
  async keys(pane: string, ...keys: string[]): Promise<void> {
    await this.tmux.run(["send-keys", "-t", pane, ...keys]);
  }
  async enter(pane: string): Promise<void> {
    await this.tmux.run(["send-keys", "-t", pane, "Enter"]);
  }
  /** Paste, and wait until the text shows in the input box. */
  async pasteShown(pane: string, text: string): Promise<void> {
    await this.paste(pane, text);
    await this.waitScreen(pane, `› ${text}`);
  }
  /** The delivery recipe: paste, wait until the text shows in the input box, Enter. */
  async deliver(pane: string, text: string): Promise<void> {
    await this.pasteShown(pane, text);
    await this.enter(pane);
  }

  async waitTool(tool: string, count = 1, timeoutMs = 20000): Promise<ToolEventLine[]> {
    return waitFor(
      `${count} × ${tool} in tool_events.jsonl`,
      () => {
        const ev = this.toolEvents().filter((e) => e.tool === tool);
        return ev.length >= count ? ev : null;
      },
      { timeoutMs },
    );
  }

  cleanup(): void {
    this.endpoint.stop();
    killTmuxServer(this.tmux.socket);
    removeDir(this.projectDir);
  }
}

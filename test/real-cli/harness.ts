/**
 * One real-CLI run: a temp git repo with a real agentmux session (phase architecting), a
 * private tmux server laid out as agentmux lays it out, the run's MCP endpoint as the
 * orchestrator hosts it, and agentmux's own AgentRuntime (src/daemon/agents.ts) launching the
 * architect on the CLI under test. A screen monitor
 * records every dialog text it ever sees and when the ready prompt first showed.
 */
import { Later, type Outcome } from "../../src/daemon/outcome.ts";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { makeDirToKeep } from "../helpers/tmp.ts";
import { join } from "node:path";
import { homedir } from "node:os";
import { AgentRuntime } from "../../src/daemon/agents.ts";
import { ToolCallTail } from "../../src/bus/tool-calls.ts";
import { TurnWatcher } from "../../src/daemon/turns.ts";
import { startMcpHost, type McpHost } from "../../src/daemon/mcp-host.ts";
import { loadConfig } from "../../src/config/load.ts";
import { Layout } from "../../src/effects/tmux/layout.ts";
import { PaneWriter, type DeliverOptions, type DeliveryResult } from "../../src/effects/tmux/deliver.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { compileGate, snapshot } from "../../src/effects/tmux/screen.ts";
import { createSession } from "../../src/effects/tmux/session.ts";
import type { Config } from "../../src/schema/config.ts";
import type { Event } from "../../src/schema/events.ts";
import type { State } from "../../src/schema/state.ts";
import { createSessionDir } from "../../src/session/create.ts";
import { F } from "../../src/protocol/paths.ts";
import { writeState } from "../../src/session/write.ts";
import { REPO_ROOT, privateSocket } from "../helpers/tmp.ts";
import { LOCAL_PREFIX, writeSetupFiles, type CliDef } from "./clis.ts";
import { startMockServer, type MockServer } from "./mock-server.ts";
import type { MockBehaviour } from "./mock-turns.ts";

/** A PaneWriter that keeps every delivery's text and result, so the test can time and count them. */
export class RecordingWriter extends PaneWriter {
  readonly results: { text: string; result: DeliveryResult }[] = [];
  override async deliver(pane: string, text: string, opts: DeliverOptions): Promise<DeliveryResult> {
    const result = await super.deliver(pane, text, opts);
    this.results.push({ text, result });
    return result;
  }
}

export type DialogHit = { text: string; atMs: number; screen: string };

export type Run = {
  root: string;
  repo: string;
  home: string;
  sessionDir: string;
  socket: string;
  tmux: Tmux;
  config: Config;
  state: State;
  mock: MockServer;
  runtime: AgentRuntime;
  mcp: McpHost;
  writer: RecordingWriter;
  events: Event[];
  /** an effect's outcome into `events`: its events now and the later ones as they come (as the loop takes them) */
  take(outcome: Outcome): void;
  turns: TurnWatcher;
  log: string[];
  dialogs: DialogHit[];
  /** ms from launch until the provider's ready pattern first showed (null: never) */
  readyAtMs: number | null;
  /** ms from launch until the run's MCP endpoint saw the agent's initialize and tools/list */
  mcpReadyAtMs: number | null;
  launchedAt: number;
  stopMonitor(): void;
};

function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", HOME: cwd } });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

/** Build everything up to (not including) the launch. */
export async function prepareRun(cli: CliDef, binary: string, behaviour: MockBehaviour = {}): Promise<Run> {
  // runs live in the (non-root) user's own home, outside /tmp: as users run agentmux
  const base = process.env.REAL_CLI_RUNS || join(homedir(), ".cache", "agentmux-real-cli", "runs");
  mkdirSync(base, { recursive: true, mode: 0o700 });
  // AGENTMUX_REAL_CLI_KEEP: a folder the test helpers do not register, so it outlives the run
  const root = makeDirToKeep(`${cli.name}-`, base, !!process.env.AGENTMUX_REAL_CLI_KEEP);
  const repo = join(root, "repo");
  const home = join(root, "home");
  mkdirSync(repo);
  mkdirSync(home);
  writeFileSync(join(repo, "README.md"), "# demo\n\nA tiny project the real-CLI suite works in.\n");
  git(repo, "init", "-q", "-b", "main");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "add", "README.md");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init");

  const mock = startMockServer(join(root, "mock-requests.jsonl"), behaviour);
  const setup = cli.setup({ home, repo, mockUrl: mock.url });
  writeSetupFiles(setup);
  // the test config layer (--config): this CLI for every role, its local binary, the mock's env
  const layer = join(root, "real-cli.config.json");
  writeFileSync(layer, JSON.stringify({ defaults: { provider: cli.name }, providers: { [cli.name]: { command: binary, env: setup.env } } }, null, 2));
  const config = loadConfig({ projectDir: repo, configPath: layer, env: { HOME: home } }).config;

  const { dir: sessionDir, state: created } = createSessionDir({ projectDir: repo, request: `Real ${cli.name} check`, productManager: false });
  const state: State = { ...created, phase: "architecting" };
  writeState(sessionDir, state);
  writeFileSync(join(sessionDir, F.architectPrompt), "# Architect\n\nWrite 02_architecting/architecture.md, then call submit_architecture.\n");
  // the architect's work product: the mock model cannot write files, so the test writes it
  writeFileSync(join(sessionDir, F.architecture), "# Architecture\n\nOne module; no new dependencies.\n");

  const socket = privateSocket();
  const tmux = new Tmux(socket);
  const session = `amx-real-${cli.name}`;
  const { width, height, control_width: controlWidth } = config.tmux;
  const { controlPane } = await createSession(tmux, {
    name: session,
    cwd: repo,
    width,
    height,
    controlWidth,
    controlCommand: ["sh", "-c", "exec tail -f /dev/null"],
  });
  // as the orchestrator with tmux.control_mode (AGENTMUX_REAL_CLI_CONTROL=1): one control-mode client
  if (process.env.AGENTMUX_REAL_CLI_CONTROL && !(await tmux.useControlClient(session))) throw new Error("tmux refused a control-mode client");
  const layout = await Layout.open(tmux, { session, controlPane, controlWidth, envDir: join(repo, ".agentmux", ".env") });
  const log: string[] = [];
  const writer = new RecordingWriter(tmux, (m) => log.push(`${Math.round(performance.now())} ${m}`));
  const events: Event[] = [];
  let turns: TurnWatcher | null = null;
  // the run's MCP endpoint, hosted as the orchestrator hosts it (its state: this run's)
  const mcp = startMcpHost({ sessionDir, projectDir: repo, state: () => state, log: (m) => log.push(`${Math.round(performance.now())} ${m}`) });
  // the agents' tool calls, as the orchestrator follows them: a call after a paste is the prompt taken
  const calls = new ToolCallTail(sessionDir, () => {});
  const runtime = new AgentRuntime({
    sessionDir,
    projectDir: repo,
    workDir: repo,
    sessionName: session,
    config,
    tmux,
    layout,
    writer,
    controlPane,
    selfCommand: [process.execPath, join(REPO_ROOT, "src", "main.ts")],
    log: (m) => log.push(`${Math.round(performance.now())} ${m}`),
    onTurn: (a) => turns?.turnStarted(a),
    isIdle: (a) => turns?.isIdle(a) ?? true,
    turnEnd: (a) => turns?.lastTurnEnd(a) ?? null,
    lastToolCall: (a) => calls.lastCallAt(a),
    mcp: { tokens: mcp.tokens, url: () => mcp.endpoint.url },
  });
  // agentmux's own turn-end detection on the CLI's pane (started by tests that need it)
  turns = new TurnWatcher({
    tmux,
    watched: () => runtime.watched(),
    push: (e) => events.push(e),
    log: (m) => log.push(`${Math.round(performance.now())} ${m}`),
    stuckAfterMs: 0,
  });
  return {
    root,
    repo,
    home,
    sessionDir,
    socket,
    tmux,
    config,
    state,
    mock,
    runtime,
    take: (outcome: Outcome) => {
      const later = new Later();
      later.follow(outcome);
      void (async () => {
        for await (const e of later) events.push(e);
      })();
    },
    writer,
    events,
    log,
    turns,
    mcp,
    dialogs: [],
    readyAtMs: null,
    mcpReadyAtMs: null,
    launchedAt: 0,
    stopMonitor: () => {},
  };
}

/** Launch the architect as agents.ts does and start watching its pane for dialogs and readiness. */
export async function launchArchitect(run: Run, cli: CliDef): Promise<string> {
  run.launchedAt = performance.now();
  run.take(await run.runtime.launch("architect", "architect", "[architect] architecture"));
  const pane = run.runtime.paneOf("architect")!;
  const gate = compileGate(run.config.providers[cli.name]!.ready);
  let stopped = false;
  let title = "";
  run.stopMonitor = () => void (stopped = true);
  void (async () => {
    while (!stopped) {
      const snap = await snapshot(run.tmux, pane).catch(() => null);
      if (!snap || snap.dead) break;
      const at = Math.round(performance.now() - run.launchedAt);
      if (process.env.AGENTMUX_REAL_CLI_KEEP)
        appendFileSync(
          join(run.root, "screens.txt"),
          `=== ${Math.round(performance.now())} ${snap.title}\n${snap.screen
            .split("\n")
            .map((l) => l.trimEnd())
            .filter(Boolean)
            .slice(-8)
            .join("\n")}\n`,
        );
      if (snap.title !== title) run.log.push(`${Math.round(performance.now())} title ${JSON.stringify((title = snap.title))}`);
      for (const d of cli.dialogs) {
        if ((snap.screen.includes(d) || snap.title.includes(d)) && !run.dialogs.some((h) => h.text === d))
          run.dialogs.push({ text: d, atMs: at, screen: snap.screen });
      }
      if (run.readyAtMs === null && gate.ready?.test(snap.screen)) run.readyAtMs = at;
      if (run.mcpReadyAtMs === null && run.mcp.tokens.ready("architect")) run.mcpReadyAtMs = at;
      await Bun.sleep(process.env.AGENTMUX_REAL_CLI_KEEP ? 10 : 50);
    }
  })();
  return pane;
}

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

import { phaseEnded } from "../schema/catalog.ts";
import { join } from "node:path";
import { PaneWriter } from "../effects/tmux/deliver.ts";
import { monotonicClock } from "../effects/clock.ts";
import { installExitHooks, watchPaneExits } from "../effects/tmux/exits.ts";
import { F, projectOfSession } from "../protocol/paths.ts";
import { runEnv } from "../session/run-env.ts";
import { SessionFileWatcher } from "../bus/session-files.ts";
import { ToolTail } from "../bus/tool-tail.ts";
import { TurnEndTail } from "../bus/turn-ends.ts";
import { readToolLinesForResume } from "../bus/tool-lines.ts";
import { CreatedFilesLog } from "../bus/created-files.ts";
import { AgentRuntime } from "./agents.ts";
import { OrchestratorLoop } from "./loop.ts";
import { selfCommand } from "../effects/process/self.ts";
import { startWatchdog } from "./watchdog.ts";
import { TmuxLoss } from "./tmux-loss.ts";
import { isGone } from "../effects/tmux/errors.ts";
import { SessionFolderGone, sessionFolderPresent, writeLiveState } from "../session/folder-gone.ts";
import { touchHeartbeat } from "../session/liveness.ts";
import { TurnWatcher } from "./turns.ts";
import { Notifier } from "./notify.ts";
import { UsageWatcher } from "./usage.ts";
import { ToolCallTail } from "../bus/tool-calls.ts";
import { startMcpHost, watchMcp } from "./mcp-host.ts";
import { Prestarter } from "./prestart.ts";
import { owedFileWritten } from "./owed-file.ts";
import { takeCancelRequest } from "../session/cancel.ts";
import { cancelCause } from "../schema/cancel-request.ts";
import { Services } from "./services.ts";
import { endRun } from "./run-end.ts";
import { openRun } from "./run-open.ts";
import { ChecksService } from "./checks.ts";
import { checkEngine } from "./check-engine.ts";

/** Run one session's orchestrator until the run finishes; returns the exit code. */
export async function orchestrate(sessionDir: string): Promise<number> {
  const opened = await openRun(sessionDir);
  const { log, config, settings, projectDir, workDir, tmux, sessionName, layout, controlPane } = opened;
  let state = opened.state;
  // one clock for delivery, turn detection and reminders: a turn's end (TurnWatcher) is compared
  // with a reminder's acceptance and with the last tool call (ToolCallTail, performance.now())
  const clock = monotonicClock;
  const writer = new PaneWriter(tmux, log, clock);
  let loop!: OrchestratorLoop;
  const tmuxLoss = new TmuxLoss(tmux, sessionName, (e) => loop.push(e), clock);
  // the session folder deleted under the run (rm -rf, an agent's git clean -xdf): the run is lost, nothing more is written
  const folderGone = (): boolean => {
    if (sessionFolderPresent(sessionDir)) return false;
    loop.lose(new SessionFolderGone({ dir: sessionDir, phase: loop.state.phase }).message);
    return true;
  };
  // the run's one MCP endpoint lives here; its paths come from where this session folder is
  const mcp = startMcpHost({ sessionDir, projectDir: projectOfSession(sessionDir) ?? projectDir, state: () => loop?.state ?? state, log });
  let turns!: TurnWatcher;
  const calls = new ToolCallTail(sessionDir, (c) =>
    loop.push({ type: "agent_tool_call", at: c.at, agent: c.agent, tool: c.tool, ok: c.ok, ...(c.message ? { message: c.message } : {}) }),
  );
  const agents = new AgentRuntime({
    sessionDir,
    projectDir,
    workDir,
    sessionName,
    config,
    tmux,
    layout,
    writer,
    controlPane,
    selfCommand: selfCommand(),
    log,
    state: () => loop.state,
    onTurn: (a) => turns.turnStarted(a),
    onDelivering: (a, under) => turns.delivering(a, under),
    isIdle: (a) => turns.isIdle(a),
    turnEnd: (a) => turns.lastTurnEnd(a),
    lastToolCall: (a) => calls.lastCallAt(a),
    runEnv: runEnv(state),
    mcp: { tokens: mcp.tokens, url: () => mcp.endpoint.url },
    clock,
  });
  const usage = new UsageWatcher({ sessionDir, config, state: () => loop.state, push: (e) => loop.push(e), log, clock });
  const prestarter = new Prestarter({ runtime: agents, config, settings, log });
  // a fresh run's first agent starts now, while the rest of the start-up runs; the start step takes it over
  prestarter.startFirst(state);
  turns = new TurnWatcher({
    tmux,
    watched: () => agents.watched(),
    lastToolCall: (a) => calls.lastCallAt(a),
    push: (e) => {
      // the tool calls the agent made before its turn ended go first: a submit still on its way
      // through the file tail would otherwise meet a turn "ended without its submit" (#27)
      if (e.type === "agent_turn_ended" || e.type === "agent_rate_limited") tail.drain();
      const owedFile = owedFileWritten(e, loop.state, sessionDir);
      loop.push(owedFile && e.type === "agent_turn_ended" ? { ...e, owed_file_written: true } : e);
      // its turn is over: the file it owes is complete, its event need not wait out the stability window
      if (owedFile) files.finished(owedFile);
    },
    log,
    stuckAfterMs: config.watchdog.stuck_after_s * 1000,
    clock,
  });
  agents.persist();
  const notifier = new Notifier({ config: config.notify, sessionDir, projectDir, log }, state);
  // the project's checks: run by agentmux in the run's working tree, with the run's env (port offset)
  // (also when the config has none any more but the run still has batches to finish: they end as errors, not blocking)
  const checks =
    Object.keys(config.checks).length || state.checks?.length
      ? new ChecksService({
          sessionDir,
          workDir,
          mainRepoDir: projectDir,
          config,
          env: runEnv(state),
          state: () => loop.state,
          log,
          engine: checkEngine(),
        })
      : undefined;
  loop = new OrchestratorLoop(
    state,
    settings,
    {
      promptedSince: (agent, at) => agents.deliveredSince(agent, at),
      sessionDir,
      projectDir,
      workDir,
      config,
      runtime: agents,
      log,
      headless: state.headless === true,
      sealKey: mcp.sealKey,
      ownLine: (seq, text) => mcp.events.wrote(seq, text),
      checks,
      // a failure the run's loss explains (its session folder or tmux session gone) ends it as that loss
      explained: async (e) => folderGone() || (isGone(e) && (await tmuxLoss.check())),
      // git (isomorphic-git) is loaded only when the run commits: the orchestrator stays small
      commit: async (effect) =>
        (await import("./commit.ts")).runCommit(effect, { state: loop.state, sessionDir, workDir, mainRepoDir: projectDir, config, log }),
      // pre-started handoffs: decided once the effects of each step ran (kills before starts)
      applied: (s, e) => {
        // a conversation counts from its capture on, also when its agent is done before state records it
        if (e.type === "conversation_captured") usage.remember(e.agent, e.id);
        prestarter.update(s);
        notifier.observe(s);
        // the figures are read at every step too, not only every 2 s: the budget holds at each handoff
        for (const e of usage.poll()) loop.push(e);
      },
      effects: (run) => layout.batch(run).catch((e) => agents.layoutFailed(e)),
    },
    log,
    (s) => writeLiveState(sessionDir, s),
  );
  await loop.replayOutbox();

  const first = phaseEnded(state.phase)
    ? null
    : ({ type: state.history?.length === 1 && state.last_event === "feature_created" ? "start" : "resume", at: new Date().toISOString() } as const);
  const exitsFile = join(sessionDir, F.paneExits);
  await installExitHooks(tmux, sessionName, exitsFile);
  const exits = watchPaneExits(
    exitsFile,
    (pane, status) =>
      tmuxLoss.paneExited(
        pane,
        (p) =>
          void agents
            .paneExited(p, status)
            .then((e) => e && loop.push(e))
            .catch((e) => log(`pane exit ${p}: ${(e as Error).message}`, { level: "warn", pane: p })),
      ),
    { tmux, session: sessionName, expected: (p) => layout.isExpectedExit(p), tracked: () => agents.livePanes().values() },
  );
  const files = new SessionFileWatcher(
    sessionDir,
    (e) => loop.push(e),
    log,
    undefined,
    () => loop.state.phase === "completing",
  );
  // the owed file appears as its writer ends its turn: look at the panes now rather than at the next poll
  files.onNewVersion = () => turns.lookSoon();
  const created = new CreatedFilesLog(sessionDir);
  // turn ends the CLIs' own hooks report (claude's Stop hook, codex's notify), by launch id
  const cliTurnEnds = new TurnEndTail(join(sessionDir, F.turnEnds), (id) => {
    const agent = agents.agentOfTurnId(id);
    if (agent) turns.cliTurnEnded(agent);
  });
  const services = new Services(log);
  services.running("pane exits", () => exits.close());
  services.add({ name: "created files", start: () => created.start(), stop: () => created.stop() });
  services.add({ name: "session files", start: () => files.start(), stop: () => files.stop() });
  if (first?.type === "resume") {
    const pending = readToolLinesForResume(join(sessionDir, F.toolEvents), loop.state.tool_cursor ?? 0);
    if (pending.reset) loop.resetTools(pending.reset);
    await loop.catchUp(pending.lines);
  }
  const tail = new ToolTail(
    sessionDir,
    loop.state.tool_cursor ?? 0,
    (line) => loop.pushTool(line),
    (cause) => loop.pushToolReset(cause),
  );
  services.add({ name: "tool events", start: () => tail.start(), stop: () => tail.stop() });
  services.add({ name: "tool calls", start: () => calls.start(), stop: () => calls.stop() });
  services.add({ name: "turns", start: () => turns.start(), stop: () => turns.stop() });
  services.add({ name: "cli turn ends", start: () => cliTurnEnds.start(), stop: () => cliTurnEnds.stop() });
  services.running(
    "watchdog",
    startWatchdog({ config, headless: state.headless === true, loop, log, tmuxGone: () => tmuxLoss.check(), beat: () => touchHeartbeat(sessionDir) }).stop,
  );
  services.running("mcp endpoint", () => mcp.stop());
  const mcpWatch = watchMcp({
    endpoint: mcp.endpoint,
    bridges: () => agents.bridges(),
    restartAgent: async (a, why) => {
      const lost = agents.mcpLost(a, why);
      if (lost) loop.push(lost);
    },
    log,
    fail: (error) => loop.push({ type: "effect_failed", at: new Date().toISOString(), effect: "mcp endpoint", error }),
    clock,
  });
  services.running("mcp watch", () => mcpWatch.stop());
  // a cancel request written just before the signal (agentmux clean, a launcher's grace) names who asked
  const onSignal = (sig: string) => {
    const taken = takeCancelRequest(sessionDir);
    loop.push({ type: "cancel", at: new Date().toISOString(), reason: taken ? cancelCause(taken.request) : `the orchestrator received ${sig}` });
  };
  for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(sig, () => onSignal(sig));
  const folderWatch = clock.every(250, folderGone);
  services.running("session folder watch", () => folderWatch.stop());
  services.add({ name: "usage", start: () => usage.start(), stop: () => usage.stop() });
  if (checks) services.running("checks", () => checks.stop());

  let result: { code: number; cleanup: boolean };
  try {
    if (first) await loop.step(first);
    services.startAll();
    result = first ? await loop.run(null) : { code: state.phase === "done" ? 0 : 1, cleanup: false };
  } catch (e) {
    // A bug, not an expected outcome: record it as a failed run with its cause, then stop.
    const error = `${(e as Error).name ?? "Error"}: ${(e as Error).message ?? String(e)}`;
    log(`orchestrator crashed: ${error}`, { level: "error", event: "orchestrator_crashed", error: (e as Error).stack ?? error });
    try {
      await loop.step({ type: "effect_failed", at: new Date().toISOString(), effect: "orchestrator", error });
    } catch {
      /* the state could not be updated either; the log has the cause */
    }
    result = { code: 1, cleanup: false };
  } finally {
    services.stopAll();
  }
  // the last turns' figures: read once more after the run ended (recorded in a finished run too)
  for (const e of usage.poll()) await loop.step(e).catch((err) => log(`could not record usage: ${(err as Error).message}`));
  state = loop.state;
  // the last notifications (done, failed) go out before the session folder may go (each is bounded by notify.timeout_s)
  await notifier.drain();
  // a stopped process would not see the hang-up that ends the session
  if (agents.isPaused) agents.pause(false);
  log(`orchestrator finished: exit ${result.code}${result.cleanup ? ", removing the session folder" : ""}`, {
    event: "orchestrator_finished",
    data: { code: result.code, cleanup: result.cleanup },
  });
  await endRun({ state, result, sessionDir, projectDir, tmux, sessionName, log });
  return result.code;
}

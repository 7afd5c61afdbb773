import { join } from "node:path";
import { NoControlPane, SessionBusy } from "../session/errors.ts";
import { loadConfig } from "../config/load.ts";
import { settingsFrom } from "../config/settings.ts";
import type { Settings } from "../orchestrator/types.ts";
import type { Config } from "../schema/config.ts";
import type { State } from "../schema/state.ts";
import { Tmux, tmuxSocket } from "../effects/tmux/runner.ts";
import { Layout } from "../effects/tmux/layout.ts";
import { monotonicClock } from "../effects/clock.ts";
import { sessionLogger, type Logger } from "../effects/log.ts";
import { privateMcpDir } from "../providers/mcp.ts";
import { readRuntime, readState } from "../session/read.ts";
import { liveOrchestrator, writeOrchestratorPid } from "../session/liveness.ts";

/** What an orchestrator opens before it wires its run. */
export type OpenedRun = {
  log: Logger;
  state: State;
  /** the project's checkout (the main repository of a worktree run) */
  projectDir: string;
  /** where the agents work: the run's worktree, or the checkout itself */
  workDir: string;
  config: Config;
  settings: Settings;
  tmux: Tmux;
  sessionName: string;
  controlPane: string;
  layout: Layout;
};

/**
 * Take a session for this orchestrator (refused while another one runs it), read its state and
 * config, and reach its tmux session: one control-mode client when tmux.control_mode asks for it,
 * and the layout of its panes beside the monitor's control pane.
 */
export async function openRun(sessionDir: string): Promise<OpenedRun> {
  const log = sessionLogger(sessionDir);
  const other = liveOrchestrator(sessionDir);
  if (other) throw new SessionBusy({ dir: sessionDir, pid: other });
  writeOrchestratorPid(sessionDir);

  const state = readState(sessionDir);
  const projectDir = state.main_repo_dir ?? state.project_dir!;
  const workDir = state.worktree_path ?? projectDir;
  const { config, originOf } = loadConfig({ projectDir, ...(state.config_path ? { configPath: state.config_path } : {}) });
  const settings = settingsFrom(config, { keepSession: state.keep_session, headless: state.headless, originOf });
  const runtime = readRuntime(sessionDir);
  if (!runtime?.control_pane) throw new NoControlPane({ dir: sessionDir });
  const tmux = new Tmux(runtime.tmux_socket ?? tmuxSocket(config.tmux.socket));
  const sessionName = state.session_name;
  // tmux.control_mode: one tmux client for the whole run instead of a tmux process per call
  const controlled =
    !config.tmux.control_mode ||
    (await tmux.useControlClient(sessionName, () =>
      log("the tmux control client exited (the tmux session or server went away): tmux calls go on as processes", { level: "warn" }),
    ));
  // monotonic time counts from the process's start
  const bootMs = Math.round(monotonicClock.now());
  log(`orchestrator ${process.pid} starting in phase ${state.phase} (${state.last_event}) ${bootMs} ms after its process started`, {
    event: "orchestrator_started",
    phase: state.phase,
    data: { pid: process.pid, last_event: state.last_event, boot_ms: bootMs },
  });
  if (!controlled) log("tmux refused a control-mode client: every tmux call runs as a process of its own", { level: "warn" });

  const layout = await Layout.open(tmux, {
    session: sessionName,
    controlPane: runtime.control_pane,
    controlWidth: config.tmux.control_width,
    // a pane's env file (it may hold a provider's keys, codex's token) waits in the private folder, not the session's
    envDir: join(privateMcpDir(sessionDir), "env"),
  });
  return { log, state, projectDir, workDir, config, settings, tmux, sessionName, controlPane: runtime.control_pane, layout };
}

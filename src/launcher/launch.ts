import type { Config } from "../schema/config.ts";
import type { State } from "../schema/state.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import { killSession } from "../effects/tmux/ops.ts";
import type { ProgressMode } from "./progress.ts";
import { startTmux } from "./tmux.ts";
import { spawnOrchestrator, type Orchestrator } from "./spawn.ts";
import { followHeadless } from "./follow.ts";
import { attachAndWait } from "./attach.ts";
import { StopSignals } from "./signals.ts";
import { termName, termUnusable } from "./terminal.ts";
import { sessionId } from "../protocol/paths.ts";
import { writeState } from "../session/write.ts";

export type LaunchOptions = {
  sessionDir: string;
  state: State;
  config: Config;
  headless: boolean;
  progress: ProgressMode;
  startedAt: number;
  /** trapped since the run's first step (see signals.ts) */
  signals: StopSignals;
};

/** `state` is the run's state as launched: its session_name is the tmux session it got. */
export type Launched = { tmux: Tmux; orch: Orchestrator; state: State };

/**
 * The path start and resume share once the session folder and the branch or worktree are
 * ready: the tmux session with its monitor, then the detached orchestrator. If either fails,
 * the tmux session is closed again and the error propagates (the caller cleans its own files).
 */
export async function startProcesses(o: { sessionDir: string; state: State; config: Config; workDir: string }): Promise<Launched> {
  const { tmux, name } = await startTmux(o);
  try {
    let state = o.state;
    if (name !== state.session_name) {
      state = { ...state, session_name: name };
      writeState(o.sessionDir, state);
    }
    return { tmux, orch: spawnOrchestrator(o.sessionDir, o.workDir), state };
  } catch (e) {
    await killSession(tmux, name).catch(() => {});
    throw e;
  }
}

/** Follow the run to its end: progress lines headless, else this terminal attached to tmux. */
export async function follow(o: LaunchOptions, launched: Launched, print: (l: string) => void): Promise<number> {
  const attachLater = `attach from another terminal with: agentmux attach ${sessionId(o.sessionDir)}`;
  if (o.headless) {
    if (process.stdout.isTTY && termUnusable())
      print(`agentmux: this terminal (TERM=${termName()}) cannot show tmux: progress is shown here instead; ${attachLater}`);
    try {
      return await followHeadless(o, launched.orch, print, o.signals);
    } finally {
      o.signals.dispose();
    }
  }
  o.signals.dispose(); // attached: a closed terminal ends this launcher only; the run goes on
  const attached = await attachAndWait(o, launched.tmux, launched.orch);
  if (attached !== "unusable") return attached;
  // tmux could not take this terminal (an unknown TERM): follow the run here instead
  print(`agentmux: tmux cannot use this terminal (TERM=${termName()}): following the run here instead; ${attachLater}`);
  const signals = new StopSignals();
  try {
    return await followHeadless({ ...o, signals }, launched.orch, print, signals);
  } finally {
    signals.dispose();
  }
}

import { sessionId } from "../protocol/paths.ts";
import { Tmux } from "../effects/tmux/runner.ts";
import { attachTerminal as attachTmux } from "../effects/tmux/attach.ts";
import { liveOrchestrator } from "../session/liveness.ts";
import { requestPanel } from "../session/panel-request.ts";
import type { State } from "../schema/state.ts";
import { termName } from "./terminal.ts";
import { waitUntil } from "../effects/wait.ts";
import { goodbyeText, outcomeFrom, outcomeOf, type Outcome } from "./outcome.ts";
import type { Orchestrator } from "./spawn.ts";
import type { LaunchOptions } from "./launch.ts";

/** Hand this terminal to the session's tmux client until it detaches or the session ends. */
export function attachTerminal(tmux: Tmux, sessionName: string, controlWidth = 44, focusMonitor = true): Promise<number> {
  return attachTmux(tmux, sessionName, { cols: process.stdout.columns, rows: process.stdout.rows, controlWidth, focusMonitor });
}

const color = () => !process.env.NO_COLOR && !!process.stdout.isTTY;

function detachedText(dir: string): string {
  return `Detached. The run goes on in the background.\n  re-attach: agentmux attach ${sessionId(dir)}\n  status:    agentmux status ${sessionId(dir)}\n`;
}

function sayGoodbye(outcome: Outcome, state: State, runStartedAt: number): number {
  process.stdout.write(goodbyeText(outcome, state, runStartedAt, color()) + "\n");
  return outcome.code;
}

/**
 * Interactive: attach this terminal to the tmux session; then the goodbye screen. "unusable"
 * when tmux could not take the terminal at all (it exits non-zero at once, the run goes on).
 */
export async function attachAndWait(o: LaunchOptions, tmux: Tmux, orch: Orchestrator): Promise<number | "unusable"> {
  const code = await attachTerminal(tmux, o.state.session_name, o.config.tmux.control_width);
  const alive = await tmux.hasSession(o.state.session_name);
  if (code !== 0 && alive) return "unusable";
  if (alive) {
    process.stdout.write(detachedText(o.sessionDir));
    return 0;
  }
  const exit = await orch.exited;
  return sayGoodbye(outcomeFrom(await orch.report, o.sessionDir, o.state, o.startedAt, { pid: orch.child.pid, ...exit }), o.state, o.startedAt);
}

/**
 * `agentmux attach` (also from the home screen): a run that waits for the user's decision gets
 * its approval panel back first. When the run ends while attached (approved and committed, a
 * failed commit, a cancel), wait for its orchestrator to finish and show how it ended — the
 * commit, branch and PR, or the error — never a bare `[exited]`.
 */
export async function attachRunning(o: { sessionDir: string; state: State; socket: string; controlWidth?: number }): Promise<number> {
  const attachedAt = Date.now();
  if (o.state.awaiting_decision) requestPanel(o.sessionDir);
  const tmux = new Tmux(o.socket);
  // a run waiting for a decision gets its panel back, and the panel the keyboard
  const code = await attachTerminal(tmux, o.state.session_name, o.controlWidth, !o.state.awaiting_decision);
  const alive = await tmux.hasSession(o.state.session_name);
  if (code !== 0 && alive) {
    process.stdout.write(
      `tmux could not use this terminal (TERM=${termName()}); the run goes on. Follow it with: agentmux status ${sessionId(o.sessionDir)} --watch\n`,
    );
    return 1;
  }
  if (alive) {
    process.stdout.write(detachedText(o.sessionDir));
    return 0;
  }
  await waitUntil(() => liveOrchestrator(o.sessionDir) === null, { timeoutMs: 30_000 });
  const runStartedAt = Date.parse(o.state.created_at ?? "") || attachedAt;
  return sayGoodbye(outcomeOf(o.sessionDir, o.state, attachedAt), o.state, runStartedAt);
}

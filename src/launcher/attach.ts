import { sessionId } from "../session/paths.ts";
import { Tmux } from "../effects/tmux/runner.ts";
import { attachTerminal as attachTmux } from "../effects/tmux/attach.ts";
import { goodbyeText, outcomeFrom } from "./outcome.ts";
import type { Orchestrator } from "./spawn.ts";
import type { LaunchOptions } from "./launch.ts";

/** Hand this terminal to the session's tmux client until it detaches or the session ends. */
export function attachTerminal(tmux: Tmux, sessionName: string, controlWidth = 44): Promise<number> {
  return attachTmux(tmux, sessionName, { cols: process.stdout.columns, rows: process.stdout.rows, controlWidth });
}

/** Interactive: attach this terminal to the tmux session; then the goodbye screen. */
export async function attachAndWait(o: LaunchOptions, tmux: Tmux, orch: Orchestrator): Promise<number> {
  await attachTerminal(tmux, o.state.session_name, o.config.tmux.control_width);
  if (await tmux.hasSession(o.state.session_name)) {
    process.stdout.write(`Detached. The run goes on in the background.\n  re-attach: agentmux attach ${sessionId(o.sessionDir)}\n  status:    agentmux status ${sessionId(o.sessionDir)}\n`);
    return 0;
  }
  await orch.exited;
  const outcome = outcomeFrom(await orch.report, o.sessionDir, o.state, o.startedAt);
  const color = !process.env.NO_COLOR && !!process.stdout.isTTY;
  process.stdout.write(goodbyeText(outcome, o.state, o.startedAt, color) + "\n");
  return outcome.kind === "running" ? 1 : outcome.code;
}

import { controlLayoutArgs, controlWidthFor } from "./layout.ts";
import { attachSession, CONTROL_PANE_VAR, showEnvironment } from "./ops.ts";
import type { Tmux } from "./runner.ts";
import { chain, fitToClientArgs } from "./session.ts";

/**
 * Lay the pipeline window out for a terminal of `cols` × `rows` (when known), let it follow
 * the attaching client's size, then hand the terminal to tmux until it detaches or the
 * session ends. Returns the attach client's exit code.
 */
export async function attachTerminal(tmux: Tmux, sessionName: string, term: { cols?: number; rows?: number; controlWidth: number }): Promise<number> {
  const win = `=${sessionName}:pipeline`;
  if (term.cols && term.rows) {
    const control = await showEnvironment(tmux, sessionName, CONTROL_PANE_VAR);
    const cmds: string[][] = [["resize-window", "-t", win, "-x", String(term.cols), "-y", String(term.rows)]];
    if (control) cmds.push(...controlLayoutArgs(win, control, controlWidthFor(term.cols, term.controlWidth)));
    await tmux.exec(chain(cmds));
  }
  await tmux.exec(fitToClientArgs(sessionName));
  return attachSession(tmux, sessionName);
}

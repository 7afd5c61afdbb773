import { controlLayoutArgs, controlWidthFor } from "./session.ts";
import { attachSession, CONTROL_PANE_VAR, showEnvironment } from "./ops.ts";
import type { Tmux } from "./runner.ts";
import { chain, fitToClientArgs } from "./session.ts";
import { prefixFor, setSessionPrefix } from "./client.ts";

/**
 * Lay the pipeline window out for a terminal of `cols` × `rows` (when known), let it follow
 * the attaching client's size, focus the monitor, give the session the prefix key this
 * terminal can use (client.ts prefixFor: Ctrl-a inside the user's own Ctrl-b tmux), then hand
 * the terminal to tmux until it detaches or the session ends. Returns the attach client's exit code.
 */
export async function attachTerminal(
  tmux: Tmux,
  sessionName: string,
  term: { cols?: number; rows?: number; controlWidth: number; /** false: keep the focus where it is (the approval panel has it) */ focusMonitor?: boolean },
): Promise<number> {
  const win = `=${sessionName}:pipeline`;
  const control = await showEnvironment(tmux, sessionName, CONTROL_PANE_VAR);
  const cmds: string[][] = [];
  if (term.cols && term.rows) {
    cmds.push(["resize-window", "-t", win, "-x", String(term.cols), "-y", String(term.rows)]);
    if (control) cmds.push(...controlLayoutArgs(win, control, controlWidthFor(term.cols, term.controlWidth)));
  }
  if (control && term.focusMonitor !== false) cmds.push(["select-window", "-t", win], ["select-pane", "-t", control]);
  if (cmds.length) await tmux.exec(chain(cmds));
  await setSessionPrefix(tmux, sessionName, await prefixFor()).catch(() => {});
  await tmux.exec(fitToClientArgs(sessionName));
  return attachSession(tmux, sessionName);
}

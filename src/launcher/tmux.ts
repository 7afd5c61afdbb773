import { join } from "node:path";
import { Tmux, tmuxSocket } from "../effects/tmux/runner.ts";
import { createSession } from "../effects/tmux/session.ts";
import { installExitHooks } from "../effects/tmux/exits.ts";
import { CONTROL_PANE_VAR, setEnvironment } from "../effects/tmux/ops.ts";
import type { Config } from "../schema/config.ts";
import { SESSION_DIR_VAR } from "../schema/tmux-names.ts";
import type { State } from "../schema/state.ts";
import { F } from "../session/paths.ts";
import { selfCommand } from "../effects/process/self.ts";
import { writeRuntime } from "../session/write.ts";

/** tmux session (control pane running the monitor) + exit hooks + runtime_state.json. */
export async function startTmux(o: { sessionDir: string; state: State; config: Config }): Promise<Tmux> {
  const tmux = new Tmux(tmuxSocket(o.config.tmux.socket));
  const workDir = o.state.worktree_path ?? o.state.project_dir!;
  const { controlPane } = await createSession(tmux, {
    name: o.state.session_name,
    cwd: workDir,
    width: o.config.tmux.width,
    height: o.config.tmux.height,
    controlWidth: o.config.tmux.control_width,
    controlCommand: [...selfCommand(), "monitor", o.sessionDir],
  });
  await installExitHooks(tmux, o.state.session_name, join(o.sessionDir, F.paneExits));
  await setEnvironment(tmux, o.state.session_name, CONTROL_PANE_VAR, controlPane).catch(() => {});
  // `agentmux status/attach/resume <id>` find the session from anywhere through this
  await setEnvironment(tmux, o.state.session_name, SESSION_DIR_VAR, o.sessionDir).catch(() => {});
  writeRuntime(o.sessionDir, { tmux_session: o.state.session_name, tmux_socket: tmux.socket, panes: {}, control_pane: controlPane });
  return tmux;
}

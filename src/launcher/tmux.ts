import { basename, join } from "node:path";
import { Tmux, tmuxSocket } from "../effects/tmux/runner.ts";
import { createSession } from "../effects/tmux/session.ts";
import { SessionExists } from "../effects/tmux/errors.ts";
import { installExitHooks } from "../effects/tmux/exits.ts";
import { CONTROL_PANE_VAR, killSession, setEnvironment } from "../effects/tmux/ops.ts";
import type { Config } from "../schema/config.ts";
import { SESSION_DIR_VAR, TMUX_NAME_TRIES, tmuxSessionName } from "../schema/tmux-names.ts";
import type { State } from "../schema/state.ts";
import { F } from "../protocol/paths.ts";
import { selfCommand } from "../effects/process/self.ts";
import { writeRuntime } from "../session/write.ts";

/**
 * The run's tmux session (control pane running the monitor) + exit hooks + runtime_state.json.
 * Its name is the first free one of `agentmux-<id>`, `agentmux-<id>-2`…: another project's run
 * may hold one with the same id. The caller records the name in state.json.
 */
export async function startTmux(o: { sessionDir: string; state: State; config: Config }): Promise<{ tmux: Tmux; name: string }> {
  const tmux = new Tmux(tmuxSocket(o.config.tmux.socket));
  const workDir = o.state.worktree_path ?? o.state.project_dir!;
  const id = basename(o.sessionDir);
  const { name, controlPane } = await claimSession(tmux, id, (name) =>
    createSession(tmux, {
      name,
      cwd: workDir,
      width: o.config.tmux.width,
      height: o.config.tmux.height,
      controlWidth: o.config.tmux.control_width,
      controlCommand: [...selfCommand(), "monitor", o.sessionDir],
    }),
  );
  try {
    // first: `agentmux status/attach/resume <id>` and every ownership check find the run by it
    await setEnvironment(tmux, name, SESSION_DIR_VAR, o.sessionDir);
    await installExitHooks(tmux, name, join(o.sessionDir, F.paneExits));
    await setEnvironment(tmux, name, CONTROL_PANE_VAR, controlPane).catch(() => {});
    writeRuntime(o.sessionDir, { tmux_session: name, tmux_socket: tmux.socket, panes: {}, control_pane: controlPane });
  } catch (e) {
    await killSession(tmux, name).catch(() => {});
    throw e;
  }
  return { tmux, name };
}

async function claimSession(
  tmux: Tmux,
  id: string,
  create: (name: string) => Promise<{ controlPane: string }>,
): Promise<{ name: string; controlPane: string }> {
  for (let n = 1; ; n++) {
    const name = tmuxSessionName(id, n);
    try {
      return { name, ...(await create(name)) };
    } catch (e) {
      if (!(e instanceof SessionExists) || n >= TMUX_NAME_TRIES) throw e;
    }
  }
}

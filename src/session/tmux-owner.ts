import { realpathSync } from "node:fs";
import { basename } from "node:path";
import type { Tmux } from "../effects/tmux/runner.ts";
import { showEnvironment } from "../effects/tmux/ops.ts";
import { SESSION_DIR_VAR, isTmuxSessionNameOf, tmuxSessionName } from "../schema/tmux-names.ts";

const real = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/**
 * Whether the live tmux session `name` is the run of the session folder `dir`. A session id is
 * unique within its project only, so a name alone does not tell: each run's tmux session records
 * its folder (AMX_SESSION_DIR), and another project's run of the same id records its own. A
 * session that records no folder counts as `dir`'s when it has the first name `dir`'s id gives.
 */
export async function ownsTmuxSession(tmux: Tmux, name: string, dir: string): Promise<boolean> {
  const id = basename(dir);
  if (!isTmuxSessionNameOf(id, name)) return false;
  const recorded = await showEnvironment(tmux, name, SESSION_DIR_VAR);
  if (recorded === undefined) return name === tmuxSessionName(id);
  return recorded === dir || real(recorded) === real(dir);
}

import { rmSync } from "node:fs";
import { basename } from "node:path";
import { Tmux } from "../effects/tmux/runner.ts";
import { killSession } from "../effects/tmux/ops.ts";
import { waitUntil } from "../effects/wait.ts";
import { tmuxSessionName } from "../schema/tmux-names.ts";
import { liveOrchestrator } from "./liveness.ts";
import type { SessionSummary } from "./list.ts";

/** How long a live run gets to stop after SIGTERM before it is killed. */
const STOP_GRACE_MS = 20_000;

export type Removal = { stopped: boolean; killedTmux: boolean; notes: string[] };

/**
 * Remove a session: a live run is stopped first — its orchestrator gets SIGTERM (it cancels,
 * closes its agents and tmux session) and is waited for, so it cannot write state.json into
 * the removed folder (a ghost session) — then the tmux session is killed if still there, then
 * the folder goes. Only the tmux session agentmux named for this session (`agentmux-<id>`) is
 * ever killed: state.json is writable by agents and must not steer this at another session.
 */
export async function removeSession(s: SessionSummary): Promise<Removal> {
  const notes: string[] = [];
  let stopped = false;
  const pid = liveOrchestrator(s.dir);
  if (pid) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      /* it ended in between */
    }
    stopped = await waitUntil(() => liveOrchestrator(s.dir) === null, { timeoutMs: STOP_GRACE_MS, intervalMs: 50 });
    if (!stopped) {
      notes.push(`the orchestrator (pid ${pid}) did not stop within ${STOP_GRACE_MS / 1000} s after SIGTERM: killed`);
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
      await waitUntil(() => liveOrchestrator(s.dir) === null, { timeoutMs: 5000 });
      stopped = true;
    }
  }
  const expected = tmuxSessionName(basename(s.dir));
  let killedTmux = false;
  if (s.state && s.state.session_name !== expected) {
    notes.push(`state.json names the tmux session ${JSON.stringify(s.state.session_name)}, not ${expected}: left alone`);
  } else if (s.live || pid) {
    const tmux = new Tmux(s.socket);
    if (await tmux.hasSession(expected)) {
      await killSession(tmux, expected);
      killedTmux = true;
    }
  }
  rmSync(s.dir, { recursive: true, force: true });
  return { stopped, killedTmux, notes };
}

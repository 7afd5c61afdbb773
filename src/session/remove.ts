import { existsSync, rmSync } from "node:fs";
import { runCheckoutOf } from "./read.ts";
import { basename } from "node:path";
import { Tmux } from "../effects/tmux/runner.ts";
import { killSession } from "../effects/tmux/ops.ts";
import { waitUntil } from "../effects/wait.ts";
import { isTmuxSessionNameOf, tmuxSessionName } from "../schema/tmux-names.ts";
import { ownsTmuxSession } from "./tmux-owner.ts";
import { liveOrchestrator } from "./liveness.ts";
import { requestCancel } from "./cancel.ts";
import { continueLeftPaused } from "./paused-agents.ts";
import type { SessionSummary } from "./list.ts";
import { dropSealKey, privateMcpDir } from "./private-dir.ts";
import { removeWorktreeFiles } from "./worktree-files.ts";

/** How long a live run gets to stop after SIGTERM before it is killed. */
const STOP_GRACE_MS = 20_000;

export type Removal = { stopped: boolean; killedTmux: boolean; notes: string[] };

/**
 * Remove a session: a live run is stopped first — its orchestrator gets SIGTERM (it cancels,
 * closes its agents and tmux session) and is waited for, so it cannot write state.json into
 * the removed folder (a ghost session) — then the tmux session is killed if still there, then
 * the folder goes. Only a tmux session agentmux named for this session (`agentmux-<id>[-n]`)
 * that records this folder is ever killed: state.json is writable by agents and must not steer
 * this at another session, and another project may run a session of the same id.
 */
export async function removeSession(s: SessionSummary): Promise<Removal> {
  const notes: string[] = [];
  let stopped = false;
  const pid = liveOrchestrator(s.dir);
  if (pid) {
    try {
      requestCancel(s.dir, "clean"); // the cause the run ends with: its launcher offers no resume
    } catch {
      /* an unwritable folder: SIGTERM still stops it */
    }
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
  // agents a budget pause stopped, left so by an orchestrator that died: a stopped process
  // would not see the hang-up that ends the tmux session
  const continued = continueLeftPaused(s.dir);
  if (continued) notes.push(`continued ${continued} agent process(es) a budget pause had left stopped`);
  const name = s.state?.session_name ?? tmuxSessionName(basename(s.dir));
  let killedTmux = false;
  if (!isTmuxSessionNameOf(basename(s.dir), name)) {
    notes.push(`state.json names the tmux session ${JSON.stringify(name)}, not ${tmuxSessionName(basename(s.dir))}: left alone`);
  } else if (s.live || pid) {
    const tmux = new Tmux(s.socket);
    if (await tmux.hasSession(name)) {
      if (await ownsTmuxSession(tmux, name, s.dir)) {
        await killSession(tmux, name);
        killedTmux = true;
      } else notes.push(`the tmux session ${name} is another project's run of the same id: left alone`);
    }
  }
  notes.push(...(await giveBackCheckout(s)));
  // what its agents' CLIs read from their working folder, left by an orchestrator that did not end on its own
  notes.push(...removeWorktreeFiles(s.dir));
  rmSync(s.dir, { recursive: true, force: true });
  // its agents' MCP configs, left by an orchestrator that did not end on its own (killed, crashed)
  rmSync(privateMcpDir(s.dir), { recursive: true, force: true });
  dropSealKey(s.dir);
  return { stopped, killedTmux, notes };
}

/**
 * The run will never commit: its checkout goes back to its start branch, its branch goes when
 * it has no commit, its worktree when nothing uncommitted would be lost (each said otherwise).
 * A live run canceled by clean did this already; doing it again changes nothing.
 */
async function giveBackCheckout(s: SessionSummary): Promise<string[]> {
  const st = s.state;
  const projectDir = st?.main_repo_dir ?? st?.project_dir;
  if (!st || st.phase === "done" || !st.feature_branch || !projectDir || !existsSync(projectDir)) return [];
  try {
    const { giveCheckoutBack } = await import("../effects/git/give-back.ts");
    return await giveCheckoutBack(runCheckoutOf(st, st.feature_branch, s.dir, projectDir), { dropBranch: true });
  } catch (e) {
    return [`could not give the checkout back: ${(e as Error).message}`];
  }
}

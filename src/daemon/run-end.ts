import { existsSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { FinalReport, type State } from "../schema/state.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import { killSession } from "../effects/tmux/ops.ts";
import type { Logger } from "../effects/log.ts";
import { privateMcpDir } from "../providers/mcp.ts";
import { releaseCheckout } from "../session/checkout-lock.ts";
import { archiveSession } from "../session/archive.ts";
import { sessionFolderPresent } from "../session/folder-gone.ts";
import { ORCHESTRATOR_PID } from "../session/liveness.ts";
import { readPreexisting, runCheckoutOf } from "../session/read.ts";
import { REMOVED_BY_CLEAN } from "../schema/cancel-request.ts";
import { dropSealKey } from "../session/private-dir.ts";
import { removeWorktreeFiles } from "../session/worktree-files.ts";

/**
 * The launcher that started this orchestrator gets the final state on an extra pipe
 * (AGENTMUX_RESULT_FD): the session folder may be gone and .last_completion.json is shared
 * by every run of the project, so neither can tell a launcher how its own run ended.
 */
function reportResult(code: number, state: State): void {
  const fd = Number(process.env.AGENTMUX_RESULT_FD);
  if (!Number.isInteger(fd) || fd < 3) return;
  const report: FinalReport = FinalReport.parse({ code, state });
  try {
    writeSync(fd, JSON.stringify(report) + "\n");
  } catch {
    /* the launcher is gone (closed terminal): nothing to tell */
  }
}

/**
 * The run's own files still uncommitted in its worktree after the commit (the ones the user left
 * out of it); when they cannot be read the worktree is kept too (nothing is deleted on a guess).
 */
async function leftInWorktree(worktree: string, sessionDir: string): Promise<string[]> {
  const { uncommittedRunChanges } = await import("../effects/git/preexisting.ts");
  try {
    return await uncommittedRunChanges(worktree, readPreexisting(sessionDir));
  } catch (e) {
    return [`(unreadable: ${(e as Error).message})`];
  }
}

/**
 * What an orchestrator does once its run ended and its services stopped: the launcher is told
 * the result, the tmux session goes, a failed run gives the checkout back, and a run that asked
 * for it leaves no session folder (archived first) and no worktree that holds nothing of the
 * user's.
 */
export async function endRun(o: {
  state: State;
  result: { code: number; cleanup: boolean };
  sessionDir: string;
  projectDir: string;
  tmux: Tmux;
  sessionName: string;
  log: Logger;
}): Promise<void> {
  const { state, result, sessionDir, projectDir, tmux, sessionName, log } = o;
  reportResult(result.code, state);
  tmux.closeControlClient();
  await killSession(tmux, sessionName).catch(() => {});
  if (state.phase === "failed") await giveBack(state, sessionDir, projectDir, log);
  if (!state.worktree_path) releaseCheckout(projectDir, sessionDir);
  rmSync(join(sessionDir, ORCHESTRATOR_PID), { force: true });
  rmSync(privateMcpDir(sessionDir), { recursive: true, force: true });
  for (const note of removeWorktreeFiles(sessionDir)) log(note, { level: "warn" });
  // a committed run that cleans up: its worktree goes, unless it holds what the user left out of the commit
  const worktree = result.code === 0 && result.cleanup ? state.worktree_path : undefined;
  // files the user left out of the commit are still in the worktree: it stays with them (read before the session folder goes)
  const keptInWorktree = worktree ? await leftInWorktree(worktree, sessionDir) : [];
  if (result.cleanup && existsSync(sessionDir)) {
    try {
      archiveSession(sessionDir);
    } catch (e) {
      log(`could not archive the session: ${(e as Error).message}`, { level: "warn" });
    }
    rmSync(sessionDir, { recursive: true, force: true });
  }
  // a deleted session stays deleted: remove what effects or agents wrote into it since
  if (!sessionFolderPresent(sessionDir) && existsSync(sessionDir)) rmSync(sessionDir, { recursive: true, force: true });
  // nothing left to resume: its seal key goes too
  if (!existsSync(sessionDir)) dropSealKey(sessionDir);
  if (worktree && keptInWorktree.length) {
    log(`kept the worktree ${worktree}: ${keptInWorktree.length} file(s) left out of the commit are in it (${keptInWorktree.slice(0, 3).join(", ")})`);
  } else if (worktree) {
    // the work is committed on its branch: the worktree folder has done its job
    const { removeWorktree } = await import("../effects/git/worktree.ts");
    await removeWorktree(projectDir, worktree).catch((e) => log(`could not remove the worktree ${worktree}: ${(e as Error).message}`, { level: "warn" }));
  }
}

/**
 * A run that ended without its commit gives the checkout back (its start branch); one removed
 * by `agentmux clean` also takes its branch (when it has no commit) and its worktree (when
 * nothing uncommitted would be lost).
 */
async function giveBack(state: State, sessionDir: string, projectDir: string, log: Logger): Promise<void> {
  if (!state.feature_branch) return;
  const cleaned = state.interruption_cause === REMOVED_BY_CLEAN;
  if (state.worktree_path && !cleaned) return;
  try {
    const { giveCheckoutBack } = await import("../effects/git/give-back.ts");
    const notes = await giveCheckoutBack(runCheckoutOf(state, state.feature_branch, sessionDir, projectDir), { dropBranch: cleaned });
    for (const n of notes) log(n);
  } catch (e) {
    log(`could not give the checkout back: ${(e as Error).message}`, { level: "warn" });
  }
}

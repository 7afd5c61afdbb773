import { join } from "node:path";
import { spawnDetached, type Detached } from "../effects/process/detached.ts";
import { clearPaused, PAUSED_PIDS, recordPaused } from "../session/paused-agents.ts";
import { F } from "../protocol/paths.ts";

/**
 * While a run is paused at its budget, its agents' CLIs are stopped (SIGSTOP). Should the
 * orchestrator die then (killed, out of memory), nothing of it would ever continue them: they
 * would sit stopped until a resume or clean. The guard is a small shell in a session of its own
 * that waits for the orchestrator to go and then continues every process of the record
 * (PAUSED_PIDS); when the run goes on normally the record goes and the guard ends by itself.
 */
const GUARD = [
  'while kill -0 "$1" 2>/dev/null && [ -f "$2" ]; do sleep 1; done',
  'if [ -f "$2" ]; then while read -r pid start; do kill -CONT "$pid" 2>/dev/null; done < "$2"; rm -f "$2"; fi',
].join("; ");

export class PauseGuard {
  private readonly pids = new Set<number>();
  private guard: Detached | null = null;

  constructor(private readonly sessionDir: string) {}

  /** These processes were stopped: record them, and start the guard once per pause. */
  stopped(pids: readonly number[]): void {
    for (const p of pids) this.pids.add(p);
    recordPaused(this.sessionDir, [...this.pids]);
    this.guard ??= spawnDetached(["sh", "-c", GUARD, "agentmux-pause-guard", String(process.pid), join(this.sessionDir, PAUSED_PIDS)], {
      cwd: this.sessionDir,
      outputFile: join(this.sessionDir, F.orchestratorOutput),
    });
  }

  /** The run goes on (or ends) and its agents were continued: nothing is left for the guard. */
  continued(): void {
    this.pids.clear();
    clearPaused(this.sessionDir);
    this.guard?.child.kill();
    this.guard = null;
  }
}

import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { processIdentity, sameProcessAlive } from "../effects/process/identity.ts";
import { parsePidRecord, type PidRecord } from "./liveness.ts";
import { F } from "../protocol/paths.ts";

/**
 * The agents' processes a run paused at its budget stopped (SIGSTOP), one `<pid> <start token>`
 * a line, kept while they are stopped. If the orchestrator dies meanwhile, its guard (and a
 * later resume or clean) continues them: a stopped CLI would otherwise sit in state T forever.
 */
export const PAUSED_PIDS = `${F.runtimeDir}/paused_pids`;

export function recordPaused(sessionDir: string, pids: readonly number[]): void {
  const lines = pids.map((pid) => `${pid} ${processIdentity(pid)?.start ?? ""}`.trim());
  writeFileAtomic(join(sessionDir, PAUSED_PIDS), lines.length ? lines.join("\n") + "\n" : "");
}

export function readPaused(sessionDir: string): PidRecord[] {
  let text: string;
  try {
    text = readFileSync(join(sessionDir, PAUSED_PIDS), "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map(parsePidRecord)
    .filter((r): r is PidRecord => r !== null);
}

export function clearPaused(sessionDir: string): void {
  rmSync(join(sessionDir, PAUSED_PIDS), { force: true });
}

/**
 * Continue (SIGCONT) the processes a paused run left stopped, when they are still the same
 * processes (a reused pid is left alone), and forget them. Returns how many were continued.
 */
export function continueLeftPaused(sessionDir: string): number {
  let n = 0;
  for (const r of readPaused(sessionDir)) {
    if (!r.start || !sameProcessAlive(r.pid, { start: r.start })) continue;
    try {
      process.kill(r.pid, "SIGCONT");
      n++;
    } catch {
      /* gone in between */
    }
  }
  clearPaused(sessionDir);
  return n;
}

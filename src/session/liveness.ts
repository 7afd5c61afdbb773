import { readFileSync } from "node:fs";
import { join } from "node:path";
import { F } from "./paths.ts";

export const ORCHESTRATOR_PID = `${F.runtimeDir}/orchestrator.pid`;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid of a live orchestrator of this session, if any. */
export function liveOrchestrator(sessionDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(sessionDir, ORCHESTRATOR_PID), "utf8").trim());
    return pid > 0 && pid !== process.pid && pidAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

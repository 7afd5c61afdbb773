import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { F } from "../session/paths.ts";

export type Logger = (message: string) => void;

/** Timestamped lines in the session's orchestrator.log (and stderr when AGENTMUX_DEBUG is set). */
export function sessionLogger(sessionDir: string): Logger {
  const path = join(sessionDir, F.orchestratorLog);
  return (message: string) => {
    const line = `${new Date().toISOString()} ${message}\n`;
    try {
      appendFileSync(path, line);
    } catch {
      /* session folder removed at the end of a run */
    }
    if (process.env.AGENTMUX_DEBUG) process.stderr.write(line);
  };
}

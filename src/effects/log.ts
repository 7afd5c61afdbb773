import { appendFileSync } from "node:fs";
import { join } from "node:path";
import type { LogFields, LogRecord } from "../schema/log.ts";
import { F } from "../protocol/paths.ts";

/** Log one message; `fields` name what happened (`event`) and to whom (schema/log.ts). */
export type Logger = (msg: string, fields?: LogFields) => void;

/** One record as its JSON line, keys in their documented order. */
export function logLine(msg: string, fields: LogFields = {}, now = new Date()): string {
  const { level = "info", event = "note", agent, phase, pane, error, data } = fields;
  const record: LogRecord = { ts: now.toISOString(), level, event, msg, agent, phase, pane, error, data };
  return JSON.stringify(record) + "\n";
}

/**
 * The session's orchestrator.log, one JSON record per line (schema/log.ts); with
 * AGENTMUX_DEBUG set, each line also goes to stderr.
 */
export function sessionLogger(sessionDir: string): Logger {
  const path = join(sessionDir, F.orchestratorLog);
  return (msg, fields) => {
    const line = logLine(msg, fields);
    try {
      appendFileSync(path, line);
    } catch {
      /* session folder removed at the end of a run */
    }
    if (process.env.AGENTMUX_DEBUG) process.stderr.write(line);
  };
}

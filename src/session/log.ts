import { join } from "node:path";
import { readRegularFile } from "../effects/fs/read-regular.ts";
import type { LogRecord } from "../schema/log.ts";
import { SESSION_FILES } from "../protocol/files.ts";

const LOG = SESSION_FILES.orchestratorLog;

/**
 * The records of a session's orchestrator.log (the registry's entry: one LogRecord per line).
 * A line that is not a record (a log written before the format was JSON, or a line torn by a
 * crash) is kept as a `note` holding the raw text, so nothing in the file is hidden.
 */
export function parseLog(text: string): LogRecord[] {
  const out: LogRecord[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let record: LogRecord | undefined;
    try {
      const r = LOG.schema.safeParse(JSON.parse(line));
      if (r.success) record = r.data;
    } catch {
      // not JSON
    }
    out.push(record ?? { ts: "", level: "info", event: "note", msg: line });
  }
  return out;
}

/** The session's log records; none when there is no log yet, one `note` saying why when it cannot be read. */
export function readLog(sessionDir: string): LogRecord[] {
  const read = readRegularFile(join(sessionDir, LOG.path));
  if (read.ok) return parseLog(read.text);
  if (read.reason === "missing") return [];
  return [{ ts: "", level: "warn", event: "note", msg: `${LOG.path} ${read.message}` }];
}

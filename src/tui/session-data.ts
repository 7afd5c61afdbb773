import { readFrom } from "../effects/fs/read-range.ts";
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { AgentmuxError } from "../errors.ts";
import { RuntimeState } from "../schema/runtime.ts";
import { State } from "../schema/state.ts";
import { F } from "../session/paths.ts";

/** One line of created_files.log: `YYYY-MM-DD HH:MM:SS  <feature-relative path>` (local time). */
export type CreatedFile = { at: number; path: string };

/** Everything the monitor and `status` show, read from a session folder (never written). */
export type SessionData = {
  dir: string;
  state: State;
  runtime?: RuntimeState;
  created: CreatedFile[];
};

function readJson<T>(dir: string, name: string, schema: z.ZodType<T>): T {
  const path = join(dir, name);
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (e) {
    throw new AgentmuxError("session", `cannot read ${name}: ${(e as Error).message}`, { where: path, hint: "is this an agentmux session folder?" });
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new AgentmuxError("artifact", `${name} is not valid JSON: ${(e as Error).message}`, { where: path });
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = issue.path.length ? issue.path.join(".") : "(root)";
    throw new AgentmuxError("artifact", `${name} field ${field}: ${issue.message}`, { where: `${path}#${field}` });
  }
  return r.data;
}

export const readState = (dir: string): State => readJson(dir, F.state, State);

/** runtime_state.json is optional (finished or never-started sessions have none); a bad one is ignored. */
export function readRuntime(dir: string): RuntimeState | undefined {
  if (!existsSync(join(dir, F.runtime))) return undefined;
  try {
    return readJson(dir, F.runtime, RuntimeState);
  } catch {
    return undefined;
  }
}

export function parseCreatedFiles(text: string): CreatedFile[] {
  const out: CreatedFile[] = [];
  for (const line of text.split("\n")) {
    const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)\s+(.+)$/.exec(line);
    if (!m) continue;
    const at = new Date(`${m[1]}T${m[2]}`).getTime();
    if (!Number.isNaN(at)) out.push({ at, path: m[3]!.trim() });
  }
  return out;
}

/** The last `maxBytes` of created_files.log (the monitor shows only the most recent entries). */
export function readCreatedFiles(dir: string, maxBytes = 64 * 1024): CreatedFile[] {
  const chunk = readFrom(join(dir, F.createdFiles), -maxBytes);
  if (!chunk) return [];
  let text = chunk.buf.toString("utf8");
  if (chunk.start > 0) text = text.slice(text.indexOf("\n") + 1);
  return parseCreatedFiles(text);
}

export function readSessionData(dir: string): SessionData {
  return { dir, state: readState(dir), runtime: readRuntime(dir), created: readCreatedFiles(dir) };
}

/** Number of lines in a file by a byte scan, without parsing (tool_events.jsonl can be large). */
export function countLines(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return 0;
  }
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let n = 0;
    let last = 10;
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, null);
      if (got <= 0) break;
      const chunk = got === buf.length ? buf : buf.subarray(0, got);
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
      last = chunk[got - 1]!;
    }
    return last === 10 ? n : n + 1;
  } finally {
    closeSync(fd);
  }
}

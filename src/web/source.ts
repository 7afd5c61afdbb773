import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readSnapshotInput } from "../report/read.ts";
import { snapshot } from "../report/snapshot.ts";
import type { RunSnapshot } from "../schema/run-api/snapshot.ts";
import type { ReviewComment } from "../schema/state.ts";
import { parseLog } from "../session/log.ts";
import { readFrom } from "../effects/fs/read-range.ts";
import { listSessions, readSummary, withLiveness, type SessionSummary } from "../session/list.ts";
import { archiveRootOf } from "../session/archive.ts";
import { F, sessionsRoot } from "../protocol/paths.ts";
import { logLines } from "../views/log.ts";
import type { Line } from "../views/line.ts";

/**
 * The one place the web server reads runs: through the run API (src/report/), the snapshot
 * `agentmux status --json` prints. A run is named by its project's index in the server's list
 * and its session id; the page also gets the reviewers' line comments (their file anchors).
 */
export type RunKey = { project: number; id: string };

/** A session id as `listSessions` names them: never a path. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** One run as the page gets it: the run API's snapshot, untouched, and where it lives. */
export type RunView = { project: number; id: string; archived: boolean; snapshot: RunSnapshot; review_comments: ReviewComment[] };

/** The run API's snapshot of one session (throws the session's named errors when its state cannot be read). */
export function runView(project: number, s: SessionSummary): RunView {
  const input = readSnapshotInput(s.dir, { id: s.id, live: s.live, now: Date.now() });
  return { project, id: s.id, archived: s.archived === true, snapshot: snapshot(input), review_comments: input.state.review_comments ?? [] };
}

/** A row of the list: the run, or why its state cannot be read (it is still listed). */
export type RunRow = { project: number; id: string; run: RunView | null; error: string | null };

/** Every session of every project, newest first. A session whose state cannot be read is listed with why. */
export async function listRuns(projects: readonly string[]): Promise<RunRow[]> {
  const rows: (RunRow & { updated: number })[] = [];
  for (const [i, project] of projects.entries()) {
    for (const s of await listSessions(project)) {
      const row = { project: i, id: s.id, run: null as RunView | null, error: s.error ?? null, updated: s.updatedAt };
      if (s.state) {
        try {
          row.run = runView(i, s);
        } catch (e) {
          row.error = (e as Error).message;
        }
      }
      rows.push(row);
    }
  }
  return rows.sort((a, b) => b.updated - a.updated).map(({ updated: _, ...r }) => r);
}

/** The folder of a run the server shows (live folder first, else its archive); null when there is none. */
export function runDir(projects: readonly string[], key: RunKey): string | null {
  const project = projects[key.project];
  if (project === undefined || !SESSION_ID.test(key.id)) return null;
  for (const root of [sessionsRoot(project), archiveRootOf(sessionsRoot(project))]) {
    const dir = join(root, key.id);
    if (existsSync(join(dir, F.state))) return dir;
  }
  return null;
}

/** One run's summary with its liveness (null: no such run). */
export async function runSummary(projects: readonly string[], key: RunKey): Promise<SessionSummary | null> {
  const dir = runDir(projects, key);
  const found = dir ? readSummary(dir, Date.now()) : undefined;
  if (!found) return null;
  const archived = dir !== join(sessionsRoot(projects[key.project]!), key.id);
  return (await withLiveness([{ ...found, ...(archived ? { archived: true } : {}) }]))[0]!;
}

/** How much of a log a page that just opened gets: its end. */
const FIRST_TAIL = 256 * 1024;

/**
 * The orchestrator's log as the page shows it (the lines `status --log` prints), read from byte
 * `offset` (null: its last 256 KiB) to its last complete line; `next` is where the next read
 * starts. A log shorter than `offset` is a new one: it is read again from its end (`reset`).
 * Each change reads only what was appended.
 */
export function logFrom(dir: string, offset: number | null): { lines: Line[]; next: number; reset: boolean } {
  const path = join(dir, F.orchestratorLog);
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return { lines: [], next: 0, reset: offset !== null && offset > 0 };
  }
  const reset = offset !== null && size < offset;
  const from = offset === null || reset ? -FIRST_TAIL : offset;
  const chunk = readFrom(path, from);
  if (!chunk) return { lines: [], next: offset ?? 0, reset };
  let buf = chunk.buf;
  let base = chunk.start;
  if (from < 0 && base > 0) {
    // the tail starts mid-line: from the next line on
    const cut = buf.indexOf(10) + 1;
    buf = buf.subarray(cut);
    base += cut;
  }
  const end = buf.lastIndexOf(10) + 1; // a line being written waits for its newline
  return { lines: logLines(parseLog(buf.subarray(0, end).toString("utf8"))), next: base + end, reset: reset || offset === null };
}

/** A session's Markdown documents the page shows (empty string: not written yet). */
export function documents(dir: string): { requirements: string; plan: string; summary: string; review: string } {
  const read = (rel: string) => {
    try {
      return readFileSync(join(dir, rel), "utf8").slice(0, 256 * 1024);
    } catch {
      return "";
    }
  };
  return { requirements: read(F.requirements), plan: read(F.planMd), summary: read(F.summary), review: read(F.reviewMd) };
}

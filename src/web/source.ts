import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readLog } from "../session/log.ts";
import { countLines, readSessionData } from "../session/data.ts";
import { lastHeartbeat } from "../session/liveness.ts";
import { listSessions, readSummary, withLiveness, type SessionSummary } from "../session/list.ts";
import { archiveRootOf } from "../session/archive.ts";
import { F, sessionsRoot } from "../session/paths.ts";
import type { State } from "../schema/state.ts";
import { statusJson } from "../views/status.ts";
import { logLines } from "../views/log.ts";
import type { Line } from "../views/line.ts";

/**
 * The one place the web server reads runs. Everything the page shows of a run is the snapshot
 * `agentmux status --json` prints (the run API), with the few things only the page needs: the
 * project it belongs to, what the run waits for, the reviewers' line comments.
 */
export type RunKey = { project: number; id: string };

/** A session id as `listSessions` names them: never a path. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

const mtime = (path: string) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

/** What the run waits for from its user now (empty: nothing). */
export function waitingFor(s: State, live: boolean): { kind: "approval" | "budget" | "question"; text: string; agent?: string }[] {
  if (!live) return [];
  const out: { kind: "approval" | "budget" | "question"; text: string; agent?: string }[] = [];
  if (s.awaiting_decision && s.phase === "completing") out.push({ kind: "approval", text: "your approval: approve, or request changes" });
  if (s.budget_reached?.paused) out.push({ kind: "budget", text: s.budget_reached.text });
  for (const [key, a] of Object.entries(s.agents ?? {})) if (a.status === "needs_input" && a.question) out.push({ kind: "question", agent: key, text: a.question.text });
  return out;
}

export type RunSnapshot = ReturnType<typeof snapshotOf>;

function toolCalls(dir: string, state: State): number {
  const file = join(dir, F.toolEvents);
  return existsSync(file) ? countLines(file) : (state.applied_tool_events ?? 0);
}

/** The run API's snapshot of one session, plus the page's own fields. */
export function snapshotOf(project: number, s: SessionSummary) {
  const data = readSessionData(s.dir);
  const last = [mtime(join(s.dir, F.orchestratorLog)), lastHeartbeat(s.dir)].filter((t): t is number => t !== undefined);
  const worktree = data.state.worktree_path;
  const status = statusJson({
    ...data,
    id: s.id,
    live: s.live,
    toolEvents: toolCalls(s.dir, data.state),
    now: Date.now(),
    lastSeen: last.length ? Math.max(...last) : undefined,
    worktreeGone: worktree ? !existsSync(worktree) : false,
  });
  return {
    ...status,
    project,
    archived: s.archived === true,
    awaiting_decision: Boolean(data.state.awaiting_decision),
    waiting_for: waitingFor(data.state, s.live),
    review_comments: data.state.review_comments ?? [],
  };
}

export type RunRow = { project: number; id: string; snapshot: RunSnapshot | null; error: string | null };

/** Every session of every project, newest first. A session whose state cannot be read is listed with why. */
export async function listRuns(projects: readonly string[]): Promise<RunRow[]> {
  const rows: (RunRow & { updated: number })[] = [];
  for (const [i, project] of projects.entries()) {
    for (const s of await listSessions(project)) {
      const row = { project: i, id: s.id, snapshot: null as RunSnapshot | null, error: s.error ?? null, updated: s.updatedAt };
      if (s.state) {
        try {
          row.snapshot = snapshotOf(i, s);
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

/** The orchestrator's log as the page shows it: the same lines `status --log` prints, from line `after` on. */
export function logFrom(dir: string, after = 0): { lines: Line[]; next: number } {
  const lines = logLines(readLog(dir));
  return { lines: lines.slice(after), next: lines.length };
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

import { checkSummaryLines } from "../report/checks.ts";
import { usageLine } from "../views/usage.ts";
import { usageTotal } from "../report/usage.ts";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { State } from "../schema/state.ts";
import { readOptionalSessionFile } from "../session/file-io.ts";
import { LAST_COMPLETION_FILE, SESSION_FILES } from "../protocol/files.ts";
import { F, sessionId } from "../protocol/paths.ts";
import { archiveDirOf } from "../session/archive.ts";
import { goodbye, type GoodbyeKind } from "../views/goodbye.ts";
import type { FinalReport } from "./spawn.ts";
import { resumeCommand } from "../report/resume.ts";
import { activeMs } from "../schema/active-time.ts";

export type Outcome = { kind: GoodbyeKind; state: State | null; code: number };

/** How the orchestrator process ended (for a run it left unfinished). */
export type OrchestratorExit = { pid?: number; code: number | null; signal: string | null };

/** Why a run whose state is still live ended anyway: its orchestrator stopped early. */
export function stoppedCause(exit?: OrchestratorExit): string {
  const who = exit?.pid ? `the orchestrator (pid ${exit.pid})` : "the orchestrator";
  const how = exit?.signal ? `was killed by ${exit.signal}` : exit?.code != null ? `exited with code ${exit.code}` : "stopped";
  return `${who} ${how} before the run finished; the session is kept and can be resumed`;
}

const unfinished = (s: State, exit?: OrchestratorExit): Outcome => ({
  kind: "failed",
  state: { ...s, interruption_cause: s.interruption_cause ?? stoppedCause(exit) },
  code: 1,
});

const finished = (s: State): Outcome | null => {
  if (s.phase === "done") return { kind: "success", state: s, code: 0 };
  if (s.phase === "failed")
    return { kind: s.interruption_category === "canceled" ? "canceled" : "failed", state: s, code: s.interruption_category === "canceled" ? 130 : 1 };
  return null;
};

/**
 * The outcome the orchestrator reported itself (preferred), else what the disk says. A run the
 * orchestrator left in a live phase (killed, crashed) is failed with a cause that says so —
 * never "running" without a cause.
 */
export function outcomeFrom(report: FinalReport | null, sessionDir: string, state: State, startedAt: number, exit?: OrchestratorExit): Outcome {
  if (report) return finished(report.state) ?? unfinished(report.state, exit);
  return outcomeOf(sessionDir, state, startedAt, exit);
}

/** How the run ended, from state.json, or from .last_completion.json once the folder is gone. */
export function outcomeOf(sessionDir: string, state: State, startedAt: number, exit?: OrchestratorExit): Outcome {
  let s: State | null = null;
  // the session folder, or its archive once a successful run removed it
  for (const dir of [sessionDir, archiveDirOf(sessionDir)]) {
    const read = readOptionalSessionFile(dir, SESSION_FILES.state);
    if (read && (dir === sessionDir || read.created_at === state.created_at)) s = read; // never an older run's archive
    if (s) break;
  }
  if (s) return finished(s) ?? unfinished(s, exit);
  const project = state.main_repo_dir ?? state.project_dir!;
  const lc = readOptionalSessionFile(project, LAST_COMPLETION_FILE);
  if (lc && lc.feature_name === state.feature_name && mtimeMs(join(project, LAST_COMPLETION_FILE.path)) >= startedAt - 1000) {
    return { kind: "success", state: { ...state, phase: "done", commit_hash: lc.commit_hash, pr_url: lc.pr_url, feature_branch: lc.branch_name }, code: 0 };
  }
  return { kind: "failed", state: { ...state, interruption_cause: "the session folder disappeared before the run finished" }, code: 1 };
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The command that resumes an ended run (report/resume.ts); none when `agentmux clean` removed its session folder. */
export const resumeCommandOf = (s: State): string | undefined => resumeCommand(s) ?? undefined;

export function goodbyeText(o: Outcome, fallback: State, startedAt: number, color: boolean): string {
  const s = o.state ?? fallback;
  const kind = o.kind;
  return goodbye(
    kind,
    {
      feature: s.feature_name ?? sessionId(s.feature_dir),
      session: sessionId(s.feature_dir),
      commit: s.commit_hash,
      prUrl: s.pr_url ?? null,
      branch: s.feature_branch,
      notes: s.completion_notes ?? [],
      // the whole run: its earlier lifetimes (before a resume) and this one, as the watchdog counts it
      elapsedMs: activeMs(s, Date.now(), startedAt),
      ...(usageTotal(s) ? { usage: usageLine(usageTotal(s)!) } : {}),
      checks: checkSummaryLines(s),
      resumeCommand: resumeCommandOf(s),
      reason: s.interruption_cause,
      logPath: existsSync(join(s.feature_dir, F.orchestratorLog)) ? join(s.feature_dir, F.orchestratorLog) : null,
    },
    { color, width: process.stdout.columns || 80 },
  );
}

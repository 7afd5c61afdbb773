import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { State } from "../schema/state.ts";
import { F, LAST_COMPLETION, sessionId } from "../session/paths.ts";
import { goodbye, type GoodbyeKind } from "../views/goodbye.ts";
import type { FinalReport } from "./spawn.ts";

export type Outcome = { kind: GoodbyeKind | "running"; state: State | null; code: number };

/** The outcome the orchestrator reported itself (preferred), else what the disk says. */
export function outcomeFrom(report: FinalReport | null, sessionDir: string, state: State, startedAt: number): Outcome {
  if (report) {
    const s = report.state;
    if (report.code === 0 && s.phase === "done") return { kind: "success", state: s, code: 0 };
    if (s.phase === "failed") return { kind: s.interruption_category === "canceled" ? "canceled" : "failed", state: s, code: report.code };
    return { kind: "running", state: s, code: report.code || 1 };
  }
  return outcomeOf(sessionDir, state, startedAt);
}

/** How the run ended, from state.json, or from .last_completion.json once the folder is gone. */
export function outcomeOf(sessionDir: string, state: State, startedAt: number): Outcome {
  let s: State | null = null;
  try {
    s = JSON.parse(readFileSync(join(sessionDir, F.state), "utf8"));
  } catch {}
  if (s?.phase === "done") return { kind: "success", state: s, code: 0 };
  if (s?.phase === "failed") return { kind: s.interruption_category === "canceled" ? "canceled" : "failed", state: s, code: s.interruption_category === "canceled" ? 130 : 1 };
  if (s) return { kind: "running", state: s, code: 1 };
  const last = join(state.main_repo_dir ?? state.project_dir!, LAST_COMPLETION);
  try {
    const lc = JSON.parse(readFileSync(last, "utf8"));
    if (lc.feature_name === state.feature_name && statSync(last).mtimeMs >= startedAt - 1000) {
      return { kind: "success", state: { ...state, phase: "done", commit_hash: lc.commit_hash, pr_url: lc.pr_url, feature_branch: lc.branch_name }, code: 0 };
    }
  } catch {}
  return { kind: "failed", state: { ...state, interruption_cause: "the session folder disappeared before the run finished" }, code: 1 };
}

export function goodbyeText(o: Outcome, fallback: State, startedAt: number, color: boolean): string {
  const s = o.state ?? fallback;
  const kind = o.kind === "running" ? "failed" : o.kind;
  return goodbye(
    kind,
    {
      feature: s.feature_name ?? sessionId(s.feature_dir),
      session: sessionId(s.feature_dir),
      commit: s.commit_hash,
      prUrl: s.pr_url ?? null,
      branch: s.feature_branch,
      elapsedMs: Date.now() - startedAt,
      resumeCommand: s.interruption_resume_command ?? `agentmux resume ${sessionId(s.feature_dir)}`,
      reason: s.interruption_cause ?? (o.kind === "running" ? "the orchestrator stopped without finishing the run" : undefined),
      logPath: existsSync(join(s.feature_dir, F.orchestratorLog)) ? join(s.feature_dir, F.orchestratorLog) : null,
    },
    { color, width: process.stdout.columns || 80 },
  );
}

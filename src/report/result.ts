import type { State } from "../schema/state.ts";
import { sessionId } from "../protocol/paths.ts";
import type { RunResult } from "../schema/run-api/result.ts";
import { resumeCommand } from "./resume.ts";
import { usageFigures, usageTotal } from "./usage.ts";
import { RUN_API_VERSION } from "../schema/run-api/version.ts";

/** How a run ended (the outcome the launcher settled on, its exit code) and the state it ended with. */
export type ResultInput = { outcome: RunResult["outcome"]; exitCode: number; state: State };

/** The `--json` result line. Pure. */
export function result({ outcome, exitCode, state: s }: ResultInput): RunResult {
  const used = usageTotal(s);
  return {
    kind: "result",
    outcome,
    exit_code: exitCode,
    session: sessionId(s.feature_dir),
    commit: s.commit_hash ?? null,
    branch: s.feature_branch ?? null,
    pr_url: s.pr_url ?? null,
    cause: s.interruption_cause ?? null,
    review_loop_cap: s.review_loop_cap ?? null,
    notes: s.completion_notes ?? [],
    usage: used ? { ...usageFigures(used), budget_reached: s.budget_reached?.text ?? null } : null,
    api_version: RUN_API_VERSION,
    resume_command: outcome === "success" ? null : resumeCommand(s),
  };
}

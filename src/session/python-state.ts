import { basename, dirname } from "node:path";
import { Phase, ReviewerRole, WorkflowEvent } from "../schema/catalog.ts";
import { State, type ReviewResult } from "../schema/state.ts";
import type { PythonStateFile } from "../schema/python-state.ts";
import { readOptionalSessionFile } from "./file-io.ts";
import { SESSION_FILES, type SessionFile } from "../protocol/files.ts";
import { F } from "../protocol/paths.ts";
import { featureNameOf } from "./slug.ts";
import { zodProblems } from "./problems.ts";

export type PythonState = PythonStateFile;

/** state.json read as the Python agentmux's: the same file, its own shape (schema/python-state.ts). */
const AS_PYTHON: SessionFile<PythonState> = { ...SESSION_FILES.pythonState, path: F.state };

/** The session's state.json when the Python agentmux wrote it, else undefined (missing, unreadable, or agentmux's). */
export const readPythonState = (sessionDir: string): PythonState | undefined => readOptionalSessionFile(sessionDir, AS_PYTHON);

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const int = (v: unknown, or = 0): number => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : or);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);
const only = <T extends string>(v: unknown, allowed: readonly T[]): T | undefined => (allowed.includes(v as T) ? (v as T) : undefined);

/** `{role: {verdict, review_text}}` → agentmux's review results (the summary is the text's first line of prose). */
function reviewResults(v: unknown): Record<string, ReviewResult> | undefined {
  if (!v || typeof v !== "object") return undefined;
  const out: Record<string, ReviewResult> = {};
  for (const [role, r] of Object.entries(v as Record<string, { verdict?: unknown; review_text?: unknown }>)) {
    const verdict = only(r?.verdict, ["pass", "fail"] as const);
    if (!verdict) continue;
    const text = str(r.review_text) ?? "";
    // its rendered review: `verdict: …`, then `## Summary` and the summary's text
    const summary = text.split("\n").find((l) => l.trim() && !l.startsWith("verdict:") && !l.startsWith("#"));
    out[role] = { verdict, summary: summary?.trim() ?? "", ...(text ? { text } : {}) };
  }
  return out;
}

/**
 * agentmux's state for a session the Python agentmux wrote, at `sessionDir` (where it is now).
 * No history: `agentmux resume` infers how far the run got from its artifacts. Tool events it
 * logged carry no agentmux seal and count for nothing: they are skipped (`tool_cursor`).
 * Returns the problems instead when even the converted fields are not a valid state.
 */
export function convertPythonState(
  raw: PythonState,
  o: { sessionDir: string; toolEventsBytes: number },
): { ok: true; state: State } | { ok: false; problems: string[] } {
  const id = basename(o.sessionDir);
  const projectDir = dirname(dirname(dirname(o.sessionDir))); // <project>/.agentmux/.sessions/<id>
  const updated = str(raw.updated_at) ?? new Date(0).toISOString();
  const issue = str(raw.issue_number) ?? (typeof raw.issue_number === "number" ? String(raw.issue_number) : undefined);
  const worktree = raw.worktree_enabled === true ? str(raw.worktree_path) : undefined;
  const results = reviewResults(raw.review_results);
  const candidate = {
    phase: only(raw.phase, Phase.options) ?? "failed",
    last_event: only(raw.last_event, WorkflowEvent.options) ?? "run_failed",
    product_manager: raw.product_manager === true,
    subplan_count: int(raw.subplan_count),
    completed_subplans: strings(raw.completed_subplans),
    review_iteration: int(raw.review_iteration),
    implementation_group_total: int(raw.implementation_group_total),
    implementation_group_index: int(raw.implementation_group_index),
    implementation_group_mode: only(raw.implementation_group_mode, ["serial", "parallel"] as const) ?? null,
    implementation_active_plan_ids: strings(raw.implementation_active_plan_ids).map((p) => p.replace(/^plan_/, "")),
    implementation_completed_group_ids: strings(raw.implementation_completed_group_ids),
    updated_at: updated,
    updated_by: str(raw.updated_by) ?? "pipeline",
    feature_dir: o.sessionDir,
    session_name: str(raw.session_name) ?? `agentmux-${id}`,
    schema_version: 1,
    feature_name: featureNameOf(id),
    project_dir: projectDir,
    created_at: updated,
    ...(typeof raw.gh_available === "boolean" ? { gh_available: raw.gh_available } : {}),
    ...(issue && /^\d+$/.test(issue) ? { issue_number: Number(issue) } : {}),
    ...(str(raw.issue_title) ? { issue_title: str(raw.issue_title) } : {}),
    ...(str(raw.feature_branch) ? { feature_branch: str(raw.feature_branch) } : {}),
    ...(worktree ? { worktree_path: worktree, main_repo_dir: str(raw.main_repo_dir) ?? projectDir } : {}),
    ...(raw.research_tasks && typeof raw.research_tasks === "object" ? { research_tasks: raw.research_tasks } : {}),
    ...(raw.web_research_tasks && typeof raw.web_research_tasks === "object" ? { web_research_tasks: raw.web_research_tasks } : {}),
    ...(Array.isArray(raw.reviewer_nominations) ? { reviewer_nominations: raw.reviewer_nominations.filter((r) => ReviewerRole.safeParse(r).success) } : {}),
    ...(results ? { review_results: results } : {}),
    ...(typeof raw.awaiting_summary === "boolean" ? { awaiting_summary: raw.awaiting_summary } : {}),
    implementation_single_coder: raw.implementation_single_coder === true,
    agents: {},
    history: [],
    tool_cursor: o.toolEventsBytes,
    applied_tool_events: 0,
  };
  const parsed = State.safeParse(candidate);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, candidate).map((p) => `${p.path}: ${p.message}`) };
  return { ok: true, state: parsed.data };
}

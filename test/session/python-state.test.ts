/**
 * #28: a state.json the Python agentmux wrote (inventory §3.1) is told apart from agentmux's own
 * and converted field by field: its number lists, string issue number, plan_N ids, review
 * results without a summary, research tasks, worktree fields.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initialState } from "../../src/session/initial-state.ts";
import { convertPythonState, readPythonState } from "../../src/session/python-state.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { minimalState } from "../helpers/minimal-state.ts";

let project = "";
let dir = "";
beforeEach(() => {
  project = makeTmpDir("amx-py-state-");
  dir = join(project, ".agentmux", ".sessions", "20260517-103000-rate-limit");
  mkdirSync(dir, { recursive: true });
});
afterEach(() => removeDir(project));

const PYTHON = {
  feature_dir: "/elsewhere/.agentmux/.sessions/20260517-103000-rate-limit",
  session_name: "agentmux-20260517-103000-rate-limit",
  phase: "reviewing",
  product_manager: true,
  last_event: "implementation_completed",
  subplan_count: 2,
  completed_subplans: [1, 2],
  review_iteration: 1,
  implementation_group_total: 1,
  implementation_group_index: 1,
  implementation_group_mode: "parallel",
  implementation_single_coder: false,
  implementation_active_plan_ids: ["plan_1", "plan_2"],
  implementation_completed_group_ids: ["core"],
  updated_at: "2026-05-17T10:42:10+02:00",
  updated_by: "ReviewingHandler",
  gh_available: true,
  issue_number: "42",
  issue_title: "Rate limiting",
  feature_branch: "feature/rate-limit",
  branch_created: true,
  worktree_enabled: true,
  worktree_path: "/repo-worktrees/rate-limit",
  main_repo_dir: "/repo",
  research_tasks: { "auth-flow": "done" },
  web_research_tasks: { "rfc-6585": "dispatched" },
  reviewer_nominations: ["reviewer_logic", "reviewer_expert", "reviewer"],
  active_reviews: { reviewer_logic: "completed" },
  review_results: { reviewer_logic: { verdict: "fail", review_text: "verdict: fail\n\n## Summary\n\nNo 429 on overflow.\n" } },
  awaiting_summary: false,
  system_notice: "",
};

test("a Python state.json is recognised; agentmux's own and other files are not", () => {
  writeFileSync(join(dir, "state.json"), JSON.stringify(PYTHON));
  expect(readPythonState(dir)?.phase).toBe("reviewing");
  const own = initialState({
    featureDir: dir,
    sessionName: "agentmux-x",
    featureName: "rate-limit",
    projectDir: project,
    productManager: false,
    at: "2026-05-17T08:00:00Z",
  });
  writeFileSync(join(dir, "state.json"), JSON.stringify(own));
  expect(readPythonState(dir)).toBeUndefined();
  writeFileSync(join(dir, "state.json"), "{not json");
  expect(readPythonState(dir)).toBeUndefined();
  writeFileSync(join(dir, "state.json"), JSON.stringify({ phase: "reviewing" }));
  expect(readPythonState(dir)).toBeUndefined();
});

test("converted field by field, where the session is now", () => {
  const r = convertPythonState(PYTHON, { sessionDir: dir, toolEventsBytes: 1234 });
  if (!r.ok) throw new Error(r.problems.join("\n"));
  expect(r.state).toMatchObject({
    phase: "reviewing",
    last_event: "implementation_completed",
    product_manager: true,
    completed_subplans: ["1", "2"],
    implementation_active_plan_ids: ["1", "2"],
    review_iteration: 1,
    feature_dir: dir,
    project_dir: project,
    feature_name: "rate-limit",
    issue_number: 42,
    issue_title: "Rate limiting",
    feature_branch: "feature/rate-limit",
    worktree_path: "/repo-worktrees/rate-limit",
    main_repo_dir: "/repo",
    reviewer_nominations: ["reviewer_logic", "reviewer_expert"],
    review_results: { reviewer_logic: { verdict: "fail", summary: "No 429 on overflow.", text: PYTHON.review_results.reviewer_logic.review_text } },
    history: [],
    tool_cursor: 1234,
    schema_version: 1,
  });
  expect(Object.keys(r.state.research_tasks ?? {})).toEqual(["auth-flow"]);
});

test("a phase or event the Python tool has and agentmux has not becomes a failed run to infer", () => {
  const r = convertPythonState({ ...PYTHON, phase: "documenting", last_event: "docs_written" }, { sessionDir: dir, toolEventsBytes: 0 });
  expect(r.ok && r.state.phase).toBe("failed");
  expect(r.ok && r.state.last_event).toBe("run_failed");
});

test("a state.json agentmux reads is its own, even without history or optional fields: listed, not offered for conversion", async () => {
  const { listSessions } = await import("../../src/session/list.ts");
  const own = minimalState(dir, "agentmux-20260517-103000-rate-limit", "2026-05-17T10:30:00.000Z");
  writeFileSync(join(dir, "state.json"), JSON.stringify({ ...own, worktree_path: join(project, "wt") }));
  const [s] = await listSessions(project);
  expect(s!.error).toBeUndefined();
  expect(s!.state?.worktree_path).toBe(join(project, "wt"));
});

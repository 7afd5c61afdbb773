/**
 * #28: a session folder the Python agentmux left behind (its state.json shape, no history, its
 * unsealed tool events, done markers as empty files) is refused by `agentmux resume` with the one
 * command that converts it; `--from-python` converts it, infers the phase forward from the
 * artifacts (here: reviewing, the plan's one sub-plan being done) and finishes the run.
 * A state of agentmux's own without history is inferred forward the same way.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { convertPythonState } from "../../src/session/python-state.ts";
import { join } from "node:path";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

const ID = "20260517-103000-add-farewell";

const PLAN = `version: 2
plan_overview: Add a farewell function next to the greeting.
needs_design: false
needs_docs: false
doc_files: []
review_strategy:
  severity: medium
  focus: [testing]
groups:
  - group_id: core
    mode: serial
    plans:
      - index: 1
        name: Farewell function
subplans:
  - index: 1
    title: Farewell function
    scope: src/farewell.js and its test
    owned_files: [src/farewell.js, test/farewell.test.js]
    dependencies: None
    implementation_approach: A small ES module.
    acceptance_criteria: farewell("Ann") returns "Goodbye, Ann!"
    tasks:
      - Write the test
      - Write the function
`;

/** What the Python agentmux leaves in a session folder after an implementation its user canceled. */
function pythonSession(repo: string, over: Record<string, unknown> = {}): string {
  const dir = join(repo, ".agentmux", ".sessions", ID);
  for (const d of ["02_architecting", "04_planning", "06_implementation", "07_review", "08_completion"]) mkdirSync(join(dir, d), { recursive: true });
  const state = {
    feature_dir: dir,
    session_name: `agentmux-${ID}`,
    phase: "failed",
    product_manager: false,
    last_event: "run_canceled",
    subplan_count: 1,
    completed_subplans: [1],
    review_iteration: 0,
    implementation_group_total: 1,
    implementation_group_index: 1,
    implementation_group_mode: "serial",
    implementation_single_coder: false,
    implementation_active_plan_ids: ["plan_1"],
    implementation_completed_group_ids: ["core"],
    updated_at: "2026-05-17T10:42:10+02:00",
    updated_by: "pipeline",
    gh_available: false,
    feature_branch: "feature/add-farewell",
    branch_created: true,
    research_tasks: {},
    web_research_tasks: {},
    reviewer_nominations: ["reviewer_logic"],
    interruption_category: "canceled",
    interruption_cause: "The coder pane was closed.",
    interruption_resume_command: `agentmux resume ${ID}`,
    interruption_log_path: null,
    ...over,
  };
  writeFileSync(join(dir, "state.json"), JSON.stringify(state, null, 2) + "\n");
  writeFileSync(
    join(dir, "runtime_state.json"),
    JSON.stringify({ version: 2, primary: { _control: "%0", coder: null }, visible: [], parallel: {}, process_pids: {} }),
  );
  writeFileSync(join(dir, "tool_event_state.json"), JSON.stringify({ version: 1, applied_cursor: 0 }));
  const events = ["submit_architecture", "submit_plan"].map((tool) => JSON.stringify({ tool, timestamp: "2026-05-17T10:35:00+02:00", payload: {} }));
  events.push(JSON.stringify({ tool: "submit_done", timestamp: "2026-05-17T10:41:00+02:00", payload: { subplan_index: 1 } }));
  writeFileSync(join(dir, "tool_events.jsonl"), events.join("\n") + "\n");
  writeFileSync(join(dir, "requirements.md"), "# Requirements\n\n## Initial Request\n\nAdd a farewell function\n\n## Clarifications\n\n_None yet._\n");
  writeFileSync(join(dir, "context.md"), "# Context\n\nSession files live in this folder.\n");
  writeFileSync(join(dir, "02_architecting/architecture.md"), "# Architecture\n\nOne module, src/farewell.js.\n");
  writeFileSync(join(dir, "04_planning/plan.yaml"), PLAN);
  writeFileSync(join(dir, "04_planning/plan.md"), "Add a farewell function next to the greeting.\n");
  writeFileSync(join(dir, "04_planning/plan_1.md"), "# Farewell function\n");
  writeFileSync(join(dir, "04_planning/tasks_1.md"), "# Tasks: Farewell function\n- [x] Write the test\n- [x] Write the function\n");
  writeFileSync(
    join(dir, "04_planning/execution_plan.yaml"),
    "groups:\n- group_id: core\n  mode: serial\n  plans:\n  - file: plan_1.md\n    name: Farewell function\nneeds_design: false\nneeds_docs: false\ndoc_files: []\n",
  );
  writeFileSync(join(dir, "06_implementation/done_1"), "");
  // the coder's work, uncommitted on the feature branch
  git(repo, "checkout", "-q", "-b", "feature/add-farewell");
  writeFileSync(join(repo, "src/farewell.js"), "export const farewell = (name) => `Goodbye, ${name}!`;\n");
  writeFileSync(
    join(repo, "test/farewell.test.js"),
    'import { farewell } from "../src/farewell.js";\nif (farewell("Ann") !== "Goodbye, Ann!") throw new Error("farewell");\n',
  );
  return dir;
}

async function demoRepo() {
  const socket = privateSocket();
  sockets.push(socket);
  const repo = join(makeTmpDir(), "repo");
  expect((await runBinary(bin, ["demo", "--ci", "--dir", repo], { socket })).code).toBe(0);
  return { socket, repo };
}

test("a Python agentmux session: refused with the command that converts it; --from-python resumes it in reviewing and commits", async () => {
  const { socket, repo } = await demoRepo();
  const dir = pythonSession(repo);
  const original = readFileSync(join(dir, "state.json"), "utf8");

  const refused = await runBinary(bin, ["resume", ID, "--ci"], { cwd: repo, socket });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("this session's state.json was written by the Python agentmux");
  expect(refused.stderr).toContain(`agentmux resume ${ID} --from-python`);
  expect(readFileSync(join(dir, "state.json"), "utf8")).toBe(original);
  // without a session named, resume offers the same; the sessions list says what the session is
  const bare = await runBinary(bin, ["resume", "--ci"], { cwd: repo, socket });
  expect(bare.stderr).toContain(`agentmux resume ${ID} --from-python`);
  const status = await runBinary(bin, ["status", ID], { cwd: repo, socket });
  expect(status.stderr).toContain(
    `this session's state.json was written by the Python agentmux\n  hint: convert it and resume with: agentmux resume ${ID} --from-python`,
  );
  const listed = await runBinary(bin, ["sessions", "--json"], { cwd: repo, socket });
  expect(JSON.parse(listed.stdout).find((s: { id: string }) => s.id === ID).error).toBe(
    `written by the Python agentmux: agentmux resume ${ID} --from-python converts it`,
  );

  const r = await runBinary(bin, ["resume", "--ci", "--from-python", "--keep-session"], { cwd: repo, socket, timeoutMs: 150_000 });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("converted the Python agentmux's state.json (kept as state.python.json)");
  expect(r.stdout).toContain("resuming add-farewell in phase reviewing");
  expect(readFileSync(join(dir, "state.python.json"), "utf8")).toBe(original);
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(state.phase).toBe("done");
  expect(state.execution_groups).toEqual([{ group_id: "core", mode: "serial", plans: [{ index: 1, name: "Farewell function" }] }]);
  // the Python tool's unsealed tool events were skipped, not applied or refused one by one
  expect(readFileSync(join(dir, "orchestrator.log"), "utf8")).not.toContain("carries no valid agentmux seal");
  expect(git(repo, "show", "--name-only", "--format=", "feature/add-farewell").split("\n")).toEqual(
    expect.arrayContaining(["src/farewell.js", "test/farewell.test.js"]),
  );
}, 240_000);

test("a state of agentmux's own without history resumes where its artifacts say (not in architecting)", async () => {
  const { socket, repo } = await demoRepo();
  const dir = pythonSession(repo);
  const original = readFileSync(join(dir, "state.json"), "utf8");
  // a bad --config stops the resume before anything changes: the Python state is not converted
  const refused = await runBinary(bin, ["resume", ID, "--ci", "--from-python", "--config", join(repo, "nope.yaml")], { cwd: repo, socket });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("nope.yaml: file not found");
  expect(readFileSync(join(dir, "state.json"), "utf8")).toBe(original);
  expect(existsSync(join(dir, "state.python.json"))).toBe(false);
  // convert it the way resume does: an agentmux state, no history
  const conversion = convertPythonState(JSON.parse(original), { sessionDir: dir, toolEventsBytes: statSync(join(dir, "tool_events.jsonl")).size });
  if (!conversion.ok) throw new Error(conversion.problems.join("; "));
  writeFileSync(join(dir, "state.json"), JSON.stringify(conversion.state, null, 2) + "\n");
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(state.schema_version).toBe(1);
  expect(state.history).toEqual([]);
  // a review was written: past reviewing, the run completes without asking any agent
  writeFileSync(join(dir, "07_review/review_reviewer_logic.yaml"), "verdict: pass\nsummary: Fine.\n");
  writeFileSync(join(dir, "08_completion/summary.md"), "# Summary\n\nA farewell function.\n");
  const r = await runBinary(bin, ["resume", ID, "--ci", "--keep-session"], { cwd: repo, socket, timeoutMs: 120_000 });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.stdout).toContain("resuming add-farewell in phase completing");
  expect(r.code).toBe(0);
}, 240_000);

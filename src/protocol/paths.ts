/** Everything agentmux keeps in a project lives under `.agentmux/`. */
export const AGENTMUX_DIR = ".agentmux";
export const SESSIONS_DIR = `${AGENTMUX_DIR}/.sessions`;
export const LAST_COMPLETION = `${AGENTMUX_DIR}/.last_completion.json`;
/** preferences agents proposed, waiting for the user (`agentmux preferences`) */
export const PROPOSED_PREFERENCES = `${AGENTMUX_DIR}/proposed_preferences.json`;

/** Session-relative file names fixed by the protocol (seeds/). */
export const F = {
  state: "state.json",
  /** the Python agentmux's state.json, kept when `agentmux resume --from-python` converted it */
  pythonState: "state.python.json",
  runtime: "runtime_state.json",
  toolEvents: "tool_events.jsonl",
  toolEventsLock: ".tool_events.lock",
  toolEventState: "tool_event_state.json",
  createdFiles: "created_files.log",
  orchestratorLog: "orchestrator.log",
  /** what the orchestrator process itself printed (a runtime's crash report); the log stays JSONL */
  orchestratorOutput: "orchestrator.out",
  requirements: "requirements.md",
  context: "context.md",
  pmPrompt: "01_product_management/product_manager_prompt.md",
  architectPrompt: "02_architecting/architect_prompt.md",
  architecture: "02_architecting/architecture.md",
  research: "03_research",
  plannerPrompt: "04_planning/planner_prompt.md",
  changesPrompt: "04_planning/changes_prompt.md",
  planYaml: "04_planning/plan.yaml",
  planMd: "04_planning/plan.md",
  executionPlan: "04_planning/execution_plan.yaml",
  designerPrompt: "05_design/designer_prompt.md",
  design: "05_design/design.md",
  coderWholePrompt: "06_implementation/coder_prompt_whole.md",
  /** the project's checks agentmux ran: run_<batch>/<name>.log and .json, base/ (the same checks on the base commit) */
  checksDir: "06_checks",
  /** the seeds' Inspector completion, written by agentmux from the checks it ran */
  inspector: "06_checks/inspector.json",
  fixRequest: "07_review/fix_request.md",
  fixPrompt: "07_review/fix_prompt.md",
  reviewMd: "07_review/review.md",
  summaryPrompt: "08_completion/summary_prompt.md",
  summary: "08_completion/summary.md",
  approval: "08_completion/approval.json",
  changes: "08_completion/changes.md",
  /** assumptions, open questions and blockers the agents recorded for the user (headless runs decide instead of asking) */
  assumptions: "assumptions.md",
  /** agentmux-internal runtime files (not part of the protocol) */
  runtimeDir: ".runtime",
  paneExits: ".runtime/pane_exits",
  /** one line per turn end a CLI's own hook reported (claude's Stop hook, codex's notify): the launch's turn-end id */
  turnEnds: ".runtime/turn_ends",
  /** files agentmux created in an agent's working folder (a CLI reads them only there): removed when the run ends */
  worktreeFiles: ".runtime/worktree_files.jsonl",
  /** written by a UI that wants the approval panel shown again; consumed by the orchestrator */
  panelRequest: ".runtime/panel_request",
  /** written by a UI when the user lets a run paused at its budget go on; consumed by the orchestrator */
  budgetGoOn: ".runtime/budget_go_on",
  /** the line comments the user is writing in the completion panel, kept until the decision is written */
  panelComments: ".runtime/panel_comments.json",
  /** the approval panel's edited commit message, files left out and change request, kept until the decision is written */
  panelDraft: ".runtime/panel_draft.json",
  /** uncommitted files already in the working tree at start (left out of the run's commit) */
  preexisting: ".runtime/preexisting_changes.json",
  /** `worktree.setup` output, one capped log per command (`<n>.log`) */
  setupLogsDir: ".runtime/setup",
  /** every agentmux tool call, accepted or refused, one JSON line each (activity for the watchdog) */
  toolCalls: ".runtime/tool_calls.jsonl",
  /** touched by the live orchestrator every watchdog tick: when a killed orchestrator stopped */
  heartbeat: ".runtime/alive",
  /** where earlier versions kept the run's seal key; moved on load to the private folder (session/private-dir.ts privateSealKeyFile) */
  legacySealKey: ".runtime/tool_seal.key",
  /** the commit this run's approval made, written before its branch moves (a restart reuses only this one) */
  commitMade: ".runtime/commit_made",
  /** exact copies of the files the MCP endpoint validated, named in tool-event payloads */
  snapshotsDir: ".runtime/snapshots",
} as const;

export const PHASE_DIRS = [
  "01_product_management",
  "02_architecting",
  "03_research",
  "04_planning",
  "05_design",
  "06_implementation",
  "07_review",
  "08_completion",
] as const;

export const planFile = (n: number) => `04_planning/plan_${n}.md`;
export const tasksFile = (n: number) => `04_planning/tasks_${n}.md`;
export const coderPrompt = (n: number) => `06_implementation/coder_prompt_${n}.md`;
export const doneArtifact = (n: number) => `06_implementation/done_${n}.json`;
export const doneMarker = (n: number) => `06_implementation/done_${n}`;
export const auditLog = "06_implementation/audit.log";
export const reviewYaml = (role: string) => `07_review/review_${role}.yaml`;
export const reviewPrompt = (short: string) => `07_review/review_${short}_prompt.md`;
export const reviewArchive = (iteration: number, role: string) => `07_review/review_${iteration}_${role}.md`;
/** the blob ids of the files a fix round's line comments are about, before the fixer starts */
export const commentBaseline = (round: number) => `07_review/baseline_${round}.json`;
export const researchDir = (type: "code" | "web", topic: string) => `03_research/${type}-${topic}`;

/** Pure data: plain string joins, so the pure orchestrator can import this file. */
export const sessionsRoot = (projectDir: string) => `${projectDir.replace(/\/+$/, "")}/${SESSIONS_DIR}`;

/** A session's id is the name of its folder. */
export const sessionId = (featureDir: string) => featureDir.replace(/\/+$/, "").split("/").pop() ?? featureDir;

/**
 * A path as it appears in a line delivered to an agent: in double quotes with JSON escapes, so
 * a path with spaces, quotes, `#` or unicode stays one unambiguous word. Real CLIs read it as
 * text; the simulated agent parses it back (src/sim/tasks/route.ts promptPathIn).
 */
export const quotedPath = (path: string) => JSON.stringify(path);

/** An agent key (`coder:2`, `code-researcher:topic`) as a file name: one per agent, nothing a path could misread. */
export const agentFileName = (agentKey: string) => agentKey.replace(/[^A-Za-z0-9_.-]/g, "_");

/** The project a session folder belongs to (`<project>/.agentmux/.sessions/<id>`), or null. */
export const projectOfSession = (sessionDir: string): string | null => {
  const parts = sessionDir.replace(/\/+$/, "").split("/");
  if (parts.length < 4 || parts.at(-3) !== AGENTMUX_DIR || `${parts.at(-3)}/${parts.at(-2)}` !== SESSIONS_DIR) return null;
  return parts.slice(0, -3).join("/") || "/";
};

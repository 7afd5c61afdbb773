/**
 * The registry of session files: every file agentmux reads or writes in a session folder (and
 * the project's .last_completion.json) has one entry — its path, its syntax, the zod schema
 * its content must satisfy, who writes it and what it is for. Reading and writing structured
 * files goes through file-io.ts, which validates in both directions; docs/protocol.md's layout
 * table is generated from here.
 */
import { z } from "zod";
import { Approval, ChangesText, LastCompletion } from "../schema/artifacts/completion.ts";
import { DoneArtifact } from "../schema/artifacts/done.ts";
import { InspectorCompletion } from "../schema/artifacts/inspector.ts";
import { CheckResult } from "../schema/checks.ts";
import { ExecutionPlan, Plan } from "../schema/artifacts/plan.ts";
import { PythonStateFile } from "../schema/python-state.ts";
import { Review } from "../schema/artifacts/review.ts";
import { CANCEL_REQUEST_FILE, CancelRequest } from "../schema/cancel-request.ts";
import { ANSWER_REQUEST_FILE, AnswerRequest } from "../schema/answer-request.ts";
import { FileBaseline } from "../schema/file-baseline.ts";
import { LogRecord } from "../schema/log.ts";
import { PanelComments } from "../schema/panel-comments.ts";
import { PanelDraft } from "../schema/panel-draft.ts";
import { PreexistingChanges } from "../schema/preexisting.ts";
import { ProposalFile } from "../schema/proposals.ts";
import { RuntimeState, ToolEventState } from "../schema/runtime.ts";
import { State } from "../schema/state.ts";
import { ToolCallLine } from "../schema/tool-calls.ts";
import { ToolEventLine } from "../schema/tool-events.ts";
import { ServerFile } from "../schema/serve-file.ts";
import { WorktreeFileLine } from "../schema/worktree-files.ts";
import { F, LAST_COMPLETION, PROPOSED_PREFERENCES, SESSIONS_DIR, commentBaseline, doneArtifact, reviewYaml } from "./paths.ts";

export type Syntax = "json" | "yaml" | "jsonl" | "markdown" | "text" | "folder";
/** Who writes a file: the pure orchestrator's effects, the launcher, an agent, the MCP server, a UI, tmux hooks. */
export type Writer = "orchestrator" | "launcher" | "agent" | "mcp" | "ui" | "tmux-hook";

export type SessionFile<T = unknown> = {
  /** relative to the session folder (or, for `root: "project"`, to the project) */
  readonly path: string;
  readonly syntax: Syntax;
  /** what the content must be (for jsonl: one line) */
  readonly schema: z.ZodType<T>;
  readonly by: readonly Writer[];
  readonly about: string;
  readonly root?: "session" | "project";
};

const file = <T>(path: string, syntax: Syntax, schema: z.ZodType<T>, by: readonly Writer[], about: string): SessionFile<T> => ({
  path,
  syntax,
  schema,
  by,
  about,
});
const text = (path: string, by: readonly Writer[], about: string) => file(path, "text", z.string(), by, about);
const markdown = (path: string, by: readonly Writer[], about: string) => file(path, "markdown", z.string(), by, about);
const folder = (path: string, by: readonly Writer[], about: string) => file(path, "folder", z.never(), by, about);
/** Markdown an agent must write with content: blank is not done. */
export const NonBlank = z.string().refine((s) => s.trim().length > 0, "is empty; it must have content");
const written = (path: string, about: string) => file(path, "markdown", NonBlank, ["agent"], about);

/** Every fixed-path session file; the keys of F (paths.ts) plus the internal runtime files. */
export const SESSION_FILES = {
  state: file(F.state, "json", State, ["orchestrator", "launcher"], "workflow state; written only by agentmux, atomically"),
  pythonState: file(
    F.pythonState,
    "json",
    PythonStateFile,
    ["launcher"],
    "the Python agentmux's state.json, kept when `agentmux resume --from-python` converted it",
  ),
  runtime: file(F.runtime, "json", RuntimeState, ["launcher", "orchestrator"], "tmux session, socket and pane ids of the agents"),
  toolEvents: file(F.toolEvents, "jsonl", ToolEventLine, ["mcp"], "one JSON line per MCP tool call (appended whole, under a lock)"),
  toolEventsLock: text(F.toolEventsLock, ["mcp"], "lock for appends to tool_events.jsonl"),
  toolEventState: file(F.toolEventState, "json", ToolEventState, ["orchestrator", "launcher"], "byte offset of tool_events.jsonl the orchestrator has applied"),
  createdFiles: text(F.createdFiles, ["orchestrator"], "files that appeared in the session folder, in order"),
  orchestratorLog: file(
    F.orchestratorLog,
    "jsonl",
    LogRecord,
    ["orchestrator", "launcher"],
    "the orchestrator's log, one JSON record per line (below); `agentmux status --log` shows it readably — look here first when a run misbehaves",
  ),
  orchestratorOutput: text(
    F.orchestratorOutput,
    ["launcher"],
    "what the orchestrator process printed itself, e.g. a runtime's crash report (orchestrator.log stays JSON lines)",
  ),
  requirements: file(F.requirements, "markdown", NonBlank, ["launcher", "agent"], "the request as given"),
  context: markdown(F.context, ["launcher"], "project and session facts every prompt references"),
  pmPrompt: markdown(F.pmPrompt, ["orchestrator"], "product manager prompt (with --product-manager)"),
  architectPrompt: markdown(F.architectPrompt, ["orchestrator"], "architect prompt"),
  architecture: written(F.architecture, "the architecture the architect writes"),
  research: folder(F.research, ["orchestrator", "agent"], "one folder per research topic: request.md, prompt.md, summary.md, detail.md"),
  plannerPrompt: markdown(F.plannerPrompt, ["orchestrator"], "planner prompt"),
  changesPrompt: markdown(F.changesPrompt, ["orchestrator"], "planner prompt after a change request"),
  planYaml: file(F.planYaml, "yaml", Plan, ["agent"], "the plan (contract below)"),
  planMd: markdown(F.planMd, ["agent"], "the plan in prose"),
  executionPlan: file(F.executionPlan, "yaml", ExecutionPlan, ["orchestrator"], "groups of sub-plans, serial or parallel, derived from plan.yaml"),
  designerPrompt: markdown(F.designerPrompt, ["orchestrator"], "designer prompt (when a sub-plan needs design)"),
  design: written(F.design, "the design the designer writes"),
  coderWholePrompt: markdown(F.coderWholePrompt, ["orchestrator"], "prompt for a single coder that takes the whole plan"),
  checksDir: folder(
    F.checksDir,
    ["orchestrator"],
    "the project's checks agentmux ran: `run_<batch>/<name>.log` (output, capped, tail kept) and `<name>.json` (the whole result); `base/` the same checks on the base commit, run when one fails",
  ),
  inspector: file(
    F.inspector,
    "json",
    InspectorCompletion,
    ["orchestrator"],
    "the seeds' Inspector completion, written by agentmux from the checks it ran (never by an agent); the commit's verification gate reads it",
  ),
  fixRequest: markdown(F.fixRequest, ["orchestrator", "launcher"], "aggregated review findings for the fix round"),
  fixPrompt: markdown(F.fixPrompt, ["orchestrator"], "coder prompt for the fix round"),
  reviewMd: markdown(F.reviewMd, ["orchestrator"], "aggregated review"),
  summaryPrompt: markdown(F.summaryPrompt, ["orchestrator"], "summary prompt"),
  summary: written(F.summary, "the summary shown in the approval panel"),
  approval: file(F.approval, "json", Approval, ["ui"], "approve decision (contract below)"),
  changes: file(F.changes, "markdown", ChangesText, ["ui"], "change request in Markdown; sends the run back to planning"),
  assumptions: markdown(
    F.assumptions,
    ["orchestrator", "agent"],
    "assumptions, open questions and blockers agents recorded for the user (headless runs decide instead of asking)",
  ),
  runtimeDir: folder(
    F.runtimeDir,
    ["launcher", "orchestrator", "mcp"],
    "agentmux-internal runtime files (snapshots, pane exits, turn ends); no secret: agents' MCP configs and token files, their panes' env files (~/.cache/agentmux/mcp/<session>-<hash>/) and the seal key (~/.cache/agentmux/keys/<session>-<hash>.seal) are kept out of the session folder",
  ),
  paneExits: text(F.paneExits, ["tmux-hook"], "pane-exit notifications from tmux hooks"),
  turnEnds: text(F.turnEnds, ["agent"], "turn ends the CLIs' own hooks report (claude's Stop hook, codex's notify): one launch's turn-end id per line"),
  worktreeFiles: file(
    F.worktreeFiles,
    "jsonl",
    WorktreeFileLine,
    ["orchestrator"],
    "files agentmux created in an agent's working folder for a CLI that reads them only there (opencode's plugins, cursor's hooks.json, agy's mcp_config.json): removed when the run ends or is cleaned, unless changed since",
  ),
  legacySealKey: text(
    F.legacySealKey,
    ["orchestrator"],
    "where earlier versions kept the run's seal key: moved to ~/.cache/agentmux/keys/ when the session is next loaded",
  ),
  snapshotsDir: folder(F.snapshotsDir, ["mcp"], "exact copies of the files the MCP endpoint validated (named by their SHA-256)"),
  preexisting: file(
    F.preexisting,
    "json",
    PreexistingChanges,
    ["launcher"],
    "uncommitted files already in the working tree at start, with their content ids: left out of the run's commit unless the run changes them",
  ),
  setupLogsDir: folder(F.setupLogsDir, ["launcher"], "the output of each `worktree.setup` command, `<n>.log` (capped: head and tail kept)"),
  toolCalls: file(F.toolCalls, "jsonl", ToolCallLine, ["mcp"], "every agentmux tool call, accepted or refused (a refused submit counts as the agent's work)"),
  heartbeat: text(F.heartbeat, ["orchestrator"], "empty; its modification time is the live orchestrator's last tick (a killed run's time counts up to it)"),
  commitMade: text(
    F.commitMade,
    ["orchestrator"],
    "the hash of the commit this run's approval made, written before the branch moves to it: after a restart only this commit is taken as already made",
  ),
  panelRequest: text(F.panelRequest, ["ui"], "a UI asks for the approval panel again (consumed by the orchestrator)"),
  budgetGoOn: text(F.budgetGoOn, ["ui"], "a UI lets a run paused at its budget (limits) go on (consumed by the orchestrator)"),
  panelComments: file(
    F.panelComments,
    "json",
    PanelComments,
    ["ui"],
    "the line comments the user is writing in the approval panel's diff view (kept until the decision is written, then put into changes.md or dropped)",
  ),
  panelDraft: file(
    F.panelDraft,
    "json",
    PanelDraft,
    ["ui"],
    "the approval panel's work in progress: the commit message as edited, the files left out, the change request being written (kept when the panel is quit and shown again, until the decision is written)",
  ),
  cancelRequest: file(
    CANCEL_REQUEST_FILE,
    "json",
    CancelRequest,
    ["ui", "launcher"],
    "a UI (the monitor, the home screen, `agentmux cancel`), `agentmux clean` or the launcher asks the orchestrator to cancel the run (consumed once)",
  ),
  answerRequest: file(
    ANSWER_REQUEST_FILE,
    "json",
    AnswerRequest,
    ["ui"],
    "the user's answer to an agent's question, from the web page (`agentmux serve --answer`): typed into the agent's pane while it waits on that question (consumed once)",
  ),
} satisfies Record<keyof typeof F | "cancelRequest" | "answerRequest", SessionFile>;

/** `06_implementation/done_<N>.json`: a coder's completion artifact. */
export const doneFile = (n: number): SessionFile<DoneArtifact> => file(doneArtifact(n), "json", DoneArtifact, ["agent"], "a coder's completion artifact");
/** `07_review/review_<role>.yaml`: one reviewer's review. */
export const reviewFile = (role: string): SessionFile<Review> => file(reviewYaml(role), "yaml", Review, ["agent"], "one reviewer's review");

/** `07_review/baseline_<round>.json`: the blob ids of the files a fix round's line comments are about, before the fixer starts. */
export const baselineFile = (round: number): SessionFile<FileBaseline> =>
  file(
    commentBaseline(round),
    "json",
    FileBaseline,
    ["orchestrator"],
    "blob ids of the files a fix round's line comments are about, taken before the fixer starts (an addressed comment's file must change)",
  );

/** `06_checks/run_<batch>/<name>.json` or `06_checks/base/<name>.json`: the whole result of one check agentmux ran. */
export const checkResultFile = (path: string): SessionFile<CheckResult> =>
  file(path, "json", CheckResult, ["orchestrator"], "the whole result of one check agentmux ran");

/** `<project>/.agentmux/proposed_preferences.json`: agent-proposed preferences waiting for the user. */
export const PROPOSALS_FILE: SessionFile<ProposalFile> = {
  ...file(PROPOSED_PREFERENCES, "json", ProposalFile, ["mcp", "ui"], "preferences agents proposed, until the user approves or rejects them"),
  root: "project",
};

/** `<project>/.agentmux/.last_completion.json`, written after a commit (outside the session folder). */
export const LAST_COMPLETION_FILE: SessionFile<LastCompletion> = {
  ...file(LAST_COMPLETION, "json", LastCompletion, ["orchestrator"], "the last commit agentmux made"),
  root: "project",
};

/** `<project>/.agentmux/.sessions/.serve.json`: where a running `agentmux serve` answers, and its token (0600). */
export const SERVE_FILE: SessionFile<ServerFile> = {
  ...file(`${SESSIONS_DIR}/.serve.json`, "json", ServerFile, ["launcher"], "where a running agentmux serve answers, and its token"),
  root: "project",
};

/** The registry entry of a session-relative path, for the files whose content is checked (JSON and YAML). */
export function sessionFileAt(path: string): SessionFile | undefined {
  const fixed = Object.values(SESSION_FILES).find((f) => f.path === path);
  if (fixed) return fixed;
  const done = /^06_implementation\/done_(\d+)\.json$/.exec(path);
  if (done) return doneFile(Number(done[1]));
  const review = /^07_review\/review_([A-Za-z0-9_-]+)\.yaml$/.exec(path);
  if (review) return reviewFile(review[1]!);
  if (/^06_checks\/(run_\d+|base)\/[A-Za-z0-9_.-]+\.json$/.test(path)) return checkResultFile(path);
  const baseline = /^07_review\/baseline_(\d+)\.json$/.exec(path);
  return baseline ? baselineFile(Number(baseline[1])) : undefined;
}

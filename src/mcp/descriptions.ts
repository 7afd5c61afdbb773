import type { ToolName } from "../schema/catalog.ts";

const PREFS = " Pass `preferences` only for standing preferences the user explicitly approved; each is saved to that role's prompt file.";

/** What each tool tells the agent (the agent reads these in its tool list). */
export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  submit_pm_done: "Signal that product management is finished (the requirements and PM notes are written)." + PREFS,
  submit_architecture:
    "Signal that 02_architecting/architecture.md is written. The file is checked (it must exist and be non-empty); fix it and call again if refused. Optionally nominate `reviewers` for the review phase." +
    PREFS,
  submit_plan:
    "Signal that 04_planning/plan.yaml (version 2) is written. The file is validated against the plan contract; every problem comes back with its field path — fix the file and call again." +
    PREFS,
  submit_review:
    "Signal that your review file 07_review/review_<role>.yaml is written (verdict pass|fail, summary, findings required when failing). It is validated; fix it and call again if refused." +
    PREFS,
  submit_done:
    "Signal that your subplan is implemented. First write 06_implementation/done_<subplan_index>.json (status, tasks_completed, files_created, files_modified, optional files_deleted, tests {files, cases}). Every claimed file is verified against the working tree and HEAD; a false claim refuses the call with a list of problems.",
  submit_research_done: "Signal that research is finished: 03_research/<type>-<topic>/summary.md must exist and be non-empty.",
  research_dispatch_code:
    "Ask a code researcher to investigate the codebase. `topic` is a lowercase slug; give the context and at least one question. The answer appears in 03_research/code-<topic>/summary.md.",
  research_dispatch_web:
    "Ask a web researcher to investigate external sources. `topic` is a lowercase slug; give the context and at least one question. The answer appears in 03_research/web-<topic>/summary.md.",
};

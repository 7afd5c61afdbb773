import type { State } from "../schema/state.ts";

export type NewSession = {
  featureDir: string;
  sessionName: string;
  featureName: string;
  projectDir: string;
  productManager: boolean;
  at: string;
  requestTitle?: string;
  issueNumber?: number;
  issueTitle?: string;
  ghAvailable?: boolean;
  /** a fix round on an existing branch: the run starts in `fixing` (see launcher/start.ts) */
  reviewRound?: boolean;
};

/**
 * state.json of a new session: every seed field, phase = the first phase of the pipeline. A
 * review round starts in `fixing` as the first fix iteration: the findings come from outside
 * (07_review/fix_request.md), then the reviewers check them as in any follow-up round.
 */
export function initialState(s: NewSession): State {
  const phase = s.reviewRound ? "fixing" : s.productManager ? "product_management" : "architecting";
  return {
    phase,
    last_event: "feature_created",
    product_manager: s.productManager,
    subplan_count: 0,
    completed_subplans: [],
    review_iteration: s.reviewRound ? 1 : 0,
    implementation_group_total: 0,
    implementation_group_index: 0,
    implementation_group_mode: null,
    implementation_active_plan_ids: [],
    implementation_completed_group_ids: [],
    updated_at: s.at,
    updated_by: "pipeline",
    feature_dir: s.featureDir,
    session_name: s.sessionName,
    schema_version: 1,
    feature_name: s.featureName,
    project_dir: s.projectDir,
    created_at: s.at,
    research_tasks: {},
    web_research_tasks: {},
    awaiting_summary: false,
    agents: {},
    history: [{ phase, event: "feature_created", at: s.at }],
    tool_cursor: 0,
    applied_tool_events: 0,
    ...(s.requestTitle ? { request_title: s.requestTitle } : {}),
    ...(s.issueNumber !== undefined ? { issue_number: s.issueNumber } : {}),
    ...(s.issueTitle ? { issue_title: s.issueTitle } : {}),
    ...(s.ghAvailable !== undefined ? { gh_available: s.ghAvailable } : {}),
  };
}

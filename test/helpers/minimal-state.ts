/**
 * The fields an agentmux state.json cannot do without, and no history: a run that failed before
 * its first step, or a test's session folder.
 */
export const minimalState = (featureDir: string, sessionName: string, at = new Date().toISOString()) => ({
  phase: "architecting",
  last_event: "feature_created",
  product_manager: false,
  subplan_count: 0,
  completed_subplans: [],
  review_iteration: 0,
  implementation_group_total: 0,
  implementation_group_index: 0,
  implementation_group_mode: null,
  implementation_active_plan_ids: [],
  implementation_completed_group_ids: [],
  updated_at: at,
  updated_by: "test",
  feature_dir: featureDir,
  session_name: sessionName,
});

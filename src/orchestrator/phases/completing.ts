import { reviewerCommitMessage } from "../../schema/commit-suggestion.ts";
import { F } from "../../protocol/paths.ts";
import { loopCapSummary } from "../review-files.ts";
import { loopCapChecks } from "../check-files.ts";
import type { Step } from "../step.ts";
import { via, type PhaseHandler } from "../types.ts";

/** The reviewers' suggested commit message, by the one rule the approval panel uses too. */
export const suggestedCommitMessage = (step: Step): string | undefined => reviewerCommitMessage(step.state.review_results);

export const completing: PhaseHandler = {
  enter(step, entry) {
    const resumed = entry.reason === "resumed";
    if (!resumed) {
      // No stale-decision cleanup here: a decision file may already be written the instant
      // state.json says "completing" (a person or a bot), and it must never be lost. The files
      // of earlier rounds are gone already: changes.md is removed when the next plan is accepted.
      step.set({ approved_at: undefined });
      if (via(entry) === "review_failed") {
        const round = step.state.review_iteration;
        step.emit({
          type: "write_file",
          path: F.summary,
          content: loopCapSummary(step.state.review_results ?? {}, round, step.state.review_loop_cap?.failing_checks) + loopCapChecks(step.state, round),
        });
      }
    }
    if (resumed && step.state.approved_at && step.state.approval && !step.state.commit_hash) {
      // approved before a restart, commit not recorded: commit again (idempotent: an earlier
      // commit on the branch is found and reused)
      step.emit({
        type: "commit",
        approval: step.state.approval,
        ...(suggestedCommitMessage(step) ? { suggested_message: suggestedCommitMessage(step) } : {}),
      });
      return;
    }
    if (step.settings.skip_final_approval) {
      // resumed without an accepted approval: a refused one was moved aside, so approve again
      if (!resumed || !step.state.approved_at) {
        const message = suggestedCommitMessage(step);
        const approval = { action: "approve", exclude_files: [], ...(message ? { commit_message: message } : {}) };
        step.emit({ type: "write_file", path: F.approval, content: JSON.stringify(approval, null, 2) + "\n" });
      }
      return;
    }
    step.set({ awaiting_decision: true, decision_waits: (step.state.decision_waits ?? 0) + 1 });
    // once per wait: the bell, a desktop notification and a status-line message (daemon/attention.ts);
    // before the panel, whose drawing covers the message when it opens in the window on screen
    if (!step.settings.headless) step.emit({ type: "attention", text: "the run waits for your approval" });
    step.emit({ type: "show_completion_panel" });
  },

  on(step, event) {
    if (event.type === "approval_written") {
      if (step.state.approved_at) return true;
      step.set({ approved_at: event.at, approval: event.approval, awaiting_decision: undefined });
      step.emit({ type: "commit", approval: event.approval, ...(suggestedCommitMessage(step) ? { suggested_message: suggestedCommitMessage(step) } : {}) });
      return true;
    }
    if (event.type === "committed") {
      step.killWhere(() => true);
      step.set({
        commit_hash: event.hash,
        pr_url: event.pr_url,
        feature_branch: event.branch,
        cleanup_feature_dir: !step.settings.keep_session,
        ...(event.notes?.length ? { completion_notes: event.notes } : {}),
      });
      step.moveTo("done", "approval_received");
      step.emit({ type: "finish", code: 0, cleanup: !step.settings.keep_session });
      return true;
    }
    if (event.type === "commit_failed") {
      step.set({ approved_at: undefined, approval: undefined, completion_error: event.error });
      // a git error already names its operation ("commit failed: ENOSPC: …"): said once
      step.fail(/^commit failed\b/.test(event.error) ? event.error : `commit failed: ${event.error}`);
      return true;
    }
    if (event.type === "changes_written") {
      if (step.state.approved_at) {
        step.log("ignored", "changes.md ignored: the run was already approved", { data: { event: event.type } });
        return true;
      }
      step.killWhere(() => true);
      step.emit({ type: "close_completion_panel" });
      step.set({
        awaiting_decision: undefined,
        subplan_count: 0,
        review_iteration: 0,
        completed_subplans: [],
        active_reviews: {},
        review_results: {},
        review_loop_cap: undefined,
        // a new plan, a new implementation: its checks start over (batch ids are never reused)
        checks: undefined,
        replanning: true,
        implementation_group_index: 0,
        implementation_group_mode: null,
        implementation_active_plan_ids: [],
        implementation_completed_group_ids: [],
      });
      step.moveTo("planning", "changes_requested");
      return true;
    }
    if (event.type === "panel_requested") {
      // the user closed the panel without deciding (or it never showed): bring it back
      if (step.state.awaiting_decision && !step.state.approved_at) step.emit({ type: "show_completion_panel" });
      else step.log("ignored", "panel request ignored: no decision is awaited", { data: { event: event.type } });
      return true;
    }
    return false;
  },
};

import { REVIEWER_ROLES, reviewerShort, type ReviewerRole } from "../../schema/catalog.ts";
import { F, reviewArchive, reviewPrompt, reviewYaml } from "../../protocol/paths.ts";
import { consolidatedReview, fixRequestMarkdown, loopCapSummary, openFindings, reviewMarkdown, reviewResult } from "../review-files.ts";
import { commentsOfReview } from "../line-comments.ts";
import type { Step } from "../step.ts";
import type { PhaseHandler } from "../types.ts";
import { blockingChecks, checksSettled, ranInRound, roundOutcomes, startChecks } from "../checks.ts";
import { checkFixRequest, checkNotice, loopCapChecks } from "../check-files.ts";

const isReviewer = (_k: string, a: { role: string }) => (REVIEWER_ROLES as readonly string[]).includes(a.role);

export function nominatedReviewers(step: Step): ReviewerRole[] {
  const n = step.state.reviewer_nominations?.filter((r) => (REVIEWER_ROLES as readonly string[]).includes(r)) ?? [];
  return n.length ? n : ["reviewer_logic"];
}

function dispatch(step: Step, role: ReviewerRole): void {
  const iter = step.state.review_iteration;
  step.launch(role, role, `[reviewer] ${reviewerShort(role)} · round ${iter + 1}`);
  const template = iter > 0 ? "review-followup" : role;
  step.prompt(role, reviewPrompt(reviewerShort(role)), template, { review_role: role, review_iteration: String(iter) });
}

function requestSummary(step: Step): void {
  const coordinator = nominatedReviewers(step)[0]!;
  if (!step.liveAgents((k) => k === coordinator).length) step.launch(coordinator, coordinator, `[reviewer] summary`);
  step.show([coordinator]);
  step.prompt(coordinator, F.summaryPrompt, "summary");
}

/**
 * The review loop cap with failing reviews. With someone to approve, completing shows them the
 * findings; with nobody (headless, skip_final_approval) the run fails, unless the config opts
 * into committing anyway (`defaults.completion.commit_on_loop_cap`).
 */
function loopCap(step: Step, iter: number): void {
  const results = step.state.review_results ?? {};
  const open = openFindings(results);
  const checks = blockingChecks(step.state, iter);
  // commit_on_loop_cap overrides reviewers' opinions, never a required check that still fails
  const decision = !step.settings.skip_final_approval ? "ask" : step.settings.commit_on_loop_cap && !checks.length ? "commit" : "fail";
  step.set({ review_loop_cap: { iterations: iter, decision, open_findings: open, ...(checks.length ? { failing_checks: checks } : {}) } });
  if (decision !== "fail") {
    step.log(
      "loop_cap",
      `review failed at the loop cap (${iter} fix rounds); completing with the failing verdicts (${decision === "ask" ? "the approval panel shows them" : "committing anyway: defaults.completion.commit_on_loop_cap"})`,
      {
        data: { iterations: iter, decision },
      },
    );
    step.moveTo("completing", "review_failed");
    return;
  }
  const failing = Object.keys(results)
    .filter((r) => results[r]!.verdict === "fail")
    .sort();
  step.emit({ type: "write_file", path: F.summary, content: loopCapSummary(results, iter, checks) + loopCapChecks(step.state, iter) });
  const what = [
    failing.length ? `${open.length} open finding(s) from ${failing.join(", ")}` : "",
    checks.length ? `required check(s) still failing: ${checks.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join(" and ");
  step.fail(
    `the review loop stopped after ${iter} fix round(s) with ${what}; nothing was committed. ` +
      (checks.length
        ? "Fix the failing check(s) or make them advisory (checks.<name>.required: false); "
        : "To commit anyway set defaults.completion.commit_on_loop_cap: true; ") +
      "to allow more fix rounds raise defaults.max_review_iterations; then resume",
  );
}

/**
 * All reviewers of the round have answered (or, checks_order before_reviewers, the round's checks
 * failed before any reviewer started) and every check the run started has its outcome: fix, give
 * up at the cap, run the before_commit checks, or ask for the summary.
 */
function evaluate(step: Step): void {
  if (!checksSettled(step.state)) return; // the verdict waits for the checks (check_finished evaluates again)
  const results = step.state.review_results ?? {};
  const iter = step.state.review_iteration;
  const failed = Object.values(results).some((r) => r.verdict === "fail");
  const checks = blockingChecks(step.state, iter);
  if (step.state.review_loop_cap) step.set({ review_loop_cap: undefined });
  if (failed || checks.length) {
    step.killWhere(isReviewer);
    if (iter >= step.settings.max_review_iterations) return loopCap(step, iter);
    step.emit({ type: "write_file", path: F.fixRequest, content: fixRequestMarkdown(results, iter + 1) + checkFixRequest(step.state, iter) });
    step.set({ review_iteration: iter + 1 });
    step.moveTo("fixing", "review_failed");
    return;
  }
  // the reviews passed and no check blocks: the checks kept for the end run now, once
  if (!ranInRound(step.state, "before_commit", iter) && startChecks(step, "before_commit")) return;
  const coordinator = nominatedReviewers(step)[0]!;
  step.emit({ type: "write_file", path: F.reviewMd, content: consolidatedReview(results) });
  step.killWhere((k, a) => isReviewer(k, a) && k !== coordinator);
  step.emit({ type: "delete_file", path: F.summary });
  step.set({ awaiting_summary: true });
  step.mark("review_passed");
  requestSummary(step);
}

/** Start the round's reviewers that have not answered; with none left, decide. */
function startReviews(step: Step): void {
  const pending = nominatedReviewers(step).filter((r) => step.state.active_reviews?.[r] === "pending");
  if (!pending.length) return evaluate(step);
  for (const r of pending) dispatch(step, r);
  step.show(pending);
}

/**
 * checks_order before_reviewers: the round's checks are settled. A blocking one sends the round
 * to the fixer without a review; otherwise the reviewers start.
 */
function checksBeforeReviews(step: Step): void {
  step.set({ review_waits_for_checks: undefined });
  if (blockingChecks(step.state, step.state.review_iteration).length) return evaluate(step);
  startReviews(step);
}

/** A check that blocks, told to the reviewers still reading (their verdict and the fixer see it anyway). */
function tellReviewers(step: Step, name: string): void {
  const o = roundOutcomes(step.state, step.state.review_iteration).get(name);
  if (!o || !o.required || o.status === "passed" || o.pre_existing) return;
  const reading = step.liveAgents((k, a) => isReviewer(k, a) && step.state.active_reviews?.[k] === "pending");
  for (const agent of reading) step.emit({ type: "notify_agent", agent, text: checkNotice(name, o) });
}

export const reviewing: PhaseHandler = {
  enter(step, entry) {
    const roles = nominatedReviewers(step);
    const resumed = entry.reason === "resumed" && step.state.active_reviews;
    if (resumed && step.state.awaiting_summary) return requestSummary(step);
    if (!resumed) {
      step.killWhere(isReviewer);
      step.set({
        active_reviews: Object.fromEntries(roles.map((r) => [r, "pending" as const])),
        review_results: {},
        awaiting_summary: false,
        review_waits_for_checks: undefined,
      });
      for (const r of roles) step.emit({ type: "delete_file", path: reviewYaml(r) });
      if (step.settings.checks_order === "before_reviewers" && !checksSettled(step.state)) {
        step.set({ review_waits_for_checks: true });
        return;
      }
    }
    if (step.state.review_waits_for_checks) return checksSettled(step.state) ? checksBeforeReviews(step) : undefined;
    if (!resumed && step.settings.checks_order === "before_reviewers" && blockingChecks(step.state, step.state.review_iteration).length) return evaluate(step);
    startReviews(step);
  },

  on(step, event) {
    if (event.type === "check_finished") {
      if (step.state.review_waits_for_checks) {
        if (checksSettled(step.state)) checksBeforeReviews(step);
        return true;
      }
      tellReviewers(step, event.name);
      const all = Object.values(step.state.active_reviews ?? {});
      if (!step.state.awaiting_summary && all.length && all.every((s) => s !== "pending")) evaluate(step);
      return true;
    }
    if (event.type === "review_submitted") {
      const active = step.state.active_reviews ?? {};
      if (active[event.role] !== "pending") {
        step.log("ignored", `submit_review from ${event.role} ignored: ${active[event.role] ? "already " + active[event.role] : "not nominated"}`, {
          data: { event: event.type, role: event.role },
        });
        return true;
      }
      const known = step.state.review_comments ?? [];
      const comments = commentsOfReview(event.role, event.review, step.state.review_iteration + 1, known);
      const archive = reviewArchive(step.state.review_iteration, event.role);
      const result = reviewResult(event.review, archive, comments);
      // the archive holds the review in full; state.json keeps a bounded copy that names it
      step.emit({ type: "write_file", path: archive, content: reviewMarkdown(event.review, comments) });
      step.set({
        active_reviews: { ...active, [event.role]: "completed" },
        review_results: { ...(step.state.review_results ?? {}), [event.role]: result },
        ...(comments.length ? { review_comments: [...known, ...comments] } : {}),
      });
      // A finished reviewer is closed at once, except the one that may write the summary.
      if (event.role !== nominatedReviewers(step)[0]) step.kill(event.role);
      if (Object.values(step.state.active_reviews!).every((s) => s !== "pending")) evaluate(step);
      return true;
    }
    if (event.type === "summary_written") {
      if (!step.state.awaiting_summary) return true;
      step.killWhere(isReviewer);
      step.set({ awaiting_summary: false });
      step.moveTo("completing", "review_passed");
      return true;
    }
    return false;
  },
};

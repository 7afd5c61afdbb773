import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../schema/config.ts";
import type { Effect } from "../schema/effects.ts";
import type { Event } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import { F } from "../protocol/paths.ts";
import { setDecisionAside } from "../session/decision.ts";
import { completeApproval } from "../effects/git/complete.ts";
import { commitDraftInputs } from "../session/commit-message.ts";
import { prBody } from "../effects/gh.ts";
import { section } from "../effects/git/message.ts";
import type { Logger } from "../effects/log.ts";
import { readPreexisting } from "../session/read.ts";
import { checkSummaryLines, checksTable } from "../report/checks.ts";

const read = (p: string) => (existsSync(p) ? readFileSync(p, "utf8") : undefined);

/** A refused decision is kept aside (the next resume asks again); the error says where it went. */
function decisionAside(sessionDir: string, log: Logger): string {
  try {
    const aside = setDecisionAside(sessionDir);
    return aside ? ` (the decision ${F.approval} was moved to ${aside}; resume the run to decide again)` : "";
  } catch (e) {
    log(`could not move ${F.approval} aside: ${(e as Error).message}`, { level: "warn" });
    return ` (the decision is still in ${F.approval})`;
  }
}

/** Stage, commit, push and open the PR for an approval; the outcome comes back as an event. */
export async function runCommit(
  effect: Extract<Effect, { type: "commit" }>,
  o: { state: State; sessionDir: string; workDir: string; mainRepoDir: string; config: Config; log: Logger },
): Promise<Event> {
  const at = () => new Date().toISOString();
  const draft = commitDraftInputs(o.sessionDir, o.state);
  const { requirements, planOverview } = draft;
  const review = read(join(o.sessionDir, F.reviewMd));
  const featureName = o.state.feature_name ?? "feature";
  const branch = o.state.feature_branch ?? `${o.config.github.branch_prefix}${featureName}`;
  // A round on an existing pull request (a review answered by the GitHub Action) pushes to its
  // branch and never opens a second one.
  const existingPr = o.state.pr_url ?? null;
  const inPlace = !o.state.worktree_path;
  if (o.state.checks?.length) {
    // the verification gate on what agentmux ran: a commit over a failing required check only when a person approved it at the loop cap
    const { checkInspectorRecord } = await import("../artifacts/inspector-gate.ts");
    const problems = checkInspectorRecord(o.sessionDir, o.workDir, { failAccepted: o.state.review_loop_cap?.decision === "ask" });
    if (problems.length) {
      const error = `the verification gate refused the commit: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`;
      o.log(error, { level: "error", event: "commit_failed" });
      return { type: "commit_failed", at: at(), error: `${error}${decisionAside(o.sessionDir, o.log)}` };
    }
  }
  try {
    const r = await completeApproval({
      workDir: o.workDir,
      mainRepoDir: o.mainRepoDir,
      sessionDir: o.sessionDir,
      ...(o.state.base_commit ? { baseCommit: o.state.base_commit } : {}),
      featureName,
      branch,
      approval: effect.approval,
      draft: { ...draft, suggested: effect.suggested_message },
      ...(o.state.checks?.length ? { trailer: ["Checks run by agentmux:", ...checkSummaryLines(o.state)].join("\n") } : {}),
      push: o.config.github.push,
      preexisting: readPreexisting(o.sessionDir),
      ...(inPlace && o.state.start_ref ? { returnTo: o.state.start_ref } : {}),
      pullRequest: {
        enabled: o.config.github.pull_request,
        ghAvailable: o.state.gh_available === true,
        existingUrl: existingPr,
        base: o.config.github.base_branch,
        draft: o.config.github.draft,
        title: o.state.issue_title ?? o.state.request_title ?? featureName,
        body: prBody({
          summary: read(join(o.sessionDir, F.summary)),
          requirements: requirements ? section(requirements, "Initial Request") || requirements : undefined,
          planSummary: planOverview,
          reviewVerdict: review?.match(/^verdict: .*$/m)?.[0],
          checks: checksTable(o.state),
          issueNumber: o.state.issue_number,
        }),
      },
    });
    for (const w of r.warnings) o.log(`completion: ${w}`, { level: "warn" });
    for (const n of r.notes) o.log(`completion: ${n}`);
    o.log(`committed ${r.short} on ${r.branch}${r.prUrl ? `, PR ${r.prUrl}` : ""}`, {
      event: "committed",
      data: { commit: r.short, branch: r.branch, pr_url: r.prUrl },
    });
    const notes = [...r.warnings, ...r.notes];
    return { type: "committed", at: at(), hash: r.short, branch: r.branch, pr_url: r.prUrl, ...(notes.length ? { notes } : {}) };
  } catch (e) {
    const message = (e as Error).message ?? String(e);
    o.log(/^commit failed\b/.test(message) ? message : `commit failed: ${message}`, {
      level: "error",
      event: "commit_failed",
      error: (e as Error).stack ?? String(e),
    });
    return { type: "commit_failed", at: at(), error: `${(e as Error).message ?? String(e)}${decisionAside(o.sessionDir, o.log)}` };
  }
}

import type { ReviewLoopCap } from "../schema/state.ts";

const SHOWN = 20;

/**
 * What the review loop cap did, for the CI result: whether the run committed anyway or failed,
 * and the open findings (one line each, the first 20). Nothing when the panel asked a person.
 */
export function loopCapLines(cap: ReviewLoopCap | undefined): string[] {
  if (!cap || cap.decision === "ask") return [];
  const n = cap.open_findings.length;
  const head =
    cap.decision === "commit"
      ? `committed with failing reviews: the review loop stopped after ${cap.iterations} fix round(s) and defaults.completion.commit_on_loop_cap is set; ${n} open finding(s):`
      : `not committed: the review loop stopped after ${cap.iterations} fix round(s) with ${n} open finding(s):`;
  const lines = cap.open_findings.slice(0, SHOWN).map((f) => `  ${[f.reviewer, f.severity, f.location, f.issue].filter(Boolean).join(" · ")}`);
  if (n > SHOWN) lines.push(`  … and ${n - SHOWN} more (see 08_completion/summary.md in the session)`);
  return [head, ...lines];
}

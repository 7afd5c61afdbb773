/**
 * #29.5: one rule for the proposed commit message. The approval panel (and the web page) took the
 * reviewers' suggestion in the order their results came in and drafted from plan.yaml; the
 * commit took it in role order and drafted from plan.md (which now also carries the reviewers'
 * focus). Both now ask session/commit-message.ts.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { materializePlan } from "../../src/orchestrator/plan-files.ts";
import { reviewerCommitMessage } from "../../src/schema/commit-suggestion.ts";
import type { State } from "../../src/schema/state.ts";
import { commitDraftInputs, proposedCommitMessage } from "../../src/session/commit-message.ts";
import { apply, events, clock, freshState, makePlan } from "../orchestrator/fixtures.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

let dir = "";
beforeEach(() => {
  dir = makeTmpDir("amx-commit-msg-");
  mkdirSync(join(dir, "04_planning"), { recursive: true });
  writeFileSync(join(dir, "requirements.md"), "# Requirements\n\n## Initial Request\n\nAdd rate limiting to the API.\n");
});
afterEach(() => removeDir(dir));

const results = {
  // came in first, but reviewer_logic sorts first
  reviewer_quality: { verdict: "pass" as const, summary: "ok", commit_message: "feat: quality's words" },
  reviewer_logic: { verdict: "pass" as const, summary: "ok", commit_message: "  feat: logic's words \n" },
};

test("the reviewers' suggestion: by role name, trimmed, blank ones skipped", () => {
  expect(reviewerCommitMessage(results)).toBe("feat: logic's words");
  expect(reviewerCommitMessage({ reviewer_expert: { commit_message: "  " }, reviewer_quality: { commit_message: "feat: q" } })).toBe("feat: q");
  expect(reviewerCommitMessage({})).toBeUndefined();
  expect(reviewerCommitMessage(undefined)).toBeUndefined();
});

test("the panel proposes what the orchestrator hands to the commit", () => {
  const now = clock();
  const state: State = { ...freshState(), phase: "completing", review_results: results, awaiting_decision: true };
  const decided = apply(state, events(now).approve());
  const commit = decided.effects.find((x) => x.type === "commit") as { suggested_message?: string } | undefined;
  expect(commit?.suggested_message).toBe("feat: logic's words");
  expect(proposedCommitMessage(dir, decided.state)).toBe("feat: logic's words");
});

test("a draft takes the plan's overview from plan.yaml, not plan.md's review focus", () => {
  const plan = { ...makePlan([{ mode: "serial", plans: [1] }]), review_strategy: { severity: "high" as const, focus: ["security"] } };
  writeFileSync(join(dir, "04_planning/plan.yaml"), stringify(plan));
  for (const f of materializePlan(plan)) {
    mkdirSync(join(dir, f.path, ".."), { recursive: true });
    writeFileSync(join(dir, f.path), f.content);
  }
  const state: State = { ...freshState(), feature_name: "rate-limit" };
  expect(commitDraftInputs(dir, state).planOverview).toBe(plan.plan_overview);
  expect(proposedCommitMessage(dir, state)).toBe(`feat: add rate limiting to the API\n\n${plan.plan_overview}`);
  // without a readable plan.yaml: plan.md's text before its first section
  writeFileSync(join(dir, "04_planning/plan.yaml"), "version: [");
  expect(commitDraftInputs(dir, state).planOverview).toBe(plan.plan_overview);
});

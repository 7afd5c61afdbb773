import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { draftCommitMessage, type CommitDraftInput } from "../effects/git/message.ts";
import { reviewerCommitMessage } from "../schema/commit-suggestion.ts";
import type { State } from "../schema/state.ts";
import { readOptionalSessionFile } from "./file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { F } from "../protocol/paths.ts";

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");

/**
 * What a drafted commit message is made of: the request, the plan's overview as the planner
 * wrote it in plan.yaml (plan.md, derived from it, also carries the reviewers' focus), else
 * plan.md's text before its first section; the feature's name and issue.
 */
export function commitDraftInputs(dir: string, state: State): CommitDraftInput {
  // an unreadable plan only loses the message body
  const overview =
    readOptionalSessionFile(dir, SESSION_FILES.planYaml)?.plan_overview ??
    read(join(dir, F.planMd))
      .replace(/^# Plan\s*/, "")
      .split(/^## /m)[0]!
      .trim();
  return {
    requirements: read(join(dir, F.requirements)),
    ...(overview ? { planOverview: overview } : {}),
    featureSlug: state.feature_name ?? basename(dir),
    ...(state.issue_number !== undefined ? { issueNumber: state.issue_number } : {}),
  };
}

/**
 * The commit message a run proposes, the one rule for every UI that shows it and for the
 * commit when nobody edited it: a reviewer's suggestion (schema/commit-suggestion.ts), else a
 * deterministic draft (effects/git/message.ts).
 */
export function proposedCommitMessage(dir: string, state: State): string {
  return reviewerCommitMessage(state.review_results) ?? draftCommitMessage(commitDraftInputs(dir, state));
}

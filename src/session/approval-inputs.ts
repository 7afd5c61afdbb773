import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { changedFiles, type FileChange } from "../effects/git/changes.ts";
import { draftCommitMessage } from "../effects/git/message.ts";
import { runOwnChanges } from "../effects/git/preexisting.ts";
import type { PanelDraft } from "../schema/panel-draft.ts";
import type { State } from "../schema/state.ts";
import { readOptionalSessionFile } from "./file-io.ts";
import { SESSION_FILES } from "./files.ts";
import { F } from "./paths.ts";
import { readPreexisting } from "./read.ts";

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");

/** The folder git works in: the worktree, else the project (…/.agentmux/.sessions/<id> → project). */
export const workDirOf = (dir: string, s: State) => s.worktree_path ?? s.project_dir ?? join(dir, "..", "..", "..");

/** The prefilled commit message: the first reviewer's proposal, else a deterministic draft. */
export function initialMessage(dir: string, state: State): string {
  const fromReview = Object.values(state.review_results ?? {}).find((r) => r.commit_message?.trim())?.commit_message;
  if (fromReview) return fromReview.trim();
  // an unreadable plan only loses the message body
  const planOverview = readOptionalSessionFile(dir, SESSION_FILES.planYaml)?.plan_overview;
  return draftCommitMessage({ requirements: read(join(dir, F.requirements)), planOverview, featureSlug: state.feature_name ?? basename(dir), issueNumber: state.issue_number });
}

/**
 * What a decision is made on, for every UI that asks for it (the approval panel, the web page):
 * the run's own changed files (not files that were uncommitted before the run and that it did not
 * touch, nor agentmux's own), the proposed commit message, and an earlier panel's work in progress.
 */
export type ApprovalInputs = { work: string; files: FileChange[]; proposedMessage: string; draft: PanelDraft | undefined };

export async function approvalInputs(dir: string, state: State): Promise<ApprovalInputs> {
  const work = workDirOf(dir, state);
  const own = runOwnChanges(work, await changedFiles(work), readPreexisting(dir)).own;
  return {
    work,
    files: own.filter((f) => !f.path.startsWith(".agentmux/")),
    proposedMessage: initialMessage(dir, state),
    draft: readOptionalSessionFile(dir, SESSION_FILES.panelDraft),
  };
}

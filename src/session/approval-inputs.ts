import { join } from "node:path";
import { changedFiles, type FileChange } from "../effects/git/changes.ts";
import { runOwnChanges } from "../effects/git/preexisting.ts";
import type { PanelDraft } from "../schema/panel-draft.ts";
import type { State } from "../schema/state.ts";
import { readOptionalSessionFile } from "./file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { proposedCommitMessage } from "./commit-message.ts";
import { readPreexisting } from "./read.ts";

/** The folder git works in: the worktree, else the project (…/.agentmux/.sessions/<id> → project). */
export const workDirOf = (dir: string, s: State) => s.worktree_path ?? s.project_dir ?? join(dir, "..", "..", "..");

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
    proposedMessage: proposedCommitMessage(dir, state),
    draft: readOptionalSessionFile(dir, SESSION_FILES.panelDraft),
  };
}

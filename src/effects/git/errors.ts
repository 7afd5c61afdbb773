import { defineError } from "../../errors.ts";
import { writeHint } from "../fs/io-error.ts";

/** What can go wrong with the user's repository, as data. */

const FIRST_COMMIT = 'make a first commit (`git add -A && git commit -m "initial commit"`), then run again';

export const NotAGitRepo = defineError("NotAGitRepo", "git", (d: { start: string }) => ({
  message: "not inside a git repository",
  where: d.start,
  hint: "run `git init` (and make a first commit) in your project, or cd into your project",
}));

/** An isomorphic-git or git operation failed for a reason of its own (`detail`). */
export const GitOperationFailed = defineError("GitOperationFailed", "git", (d: { operation: string; detail: string; root: string; code?: string }) => ({
  message: `${d.operation} failed: ${d.detail}`,
  where: d.root,
  // a full or read-only disk says what to do (effects/fs/io-error.ts, the one place write failures are named)
  hint: writeHint(d.code),
}));

const EXCLUDE_REASONS = {
  empty: "is empty",
  absolute: "is an absolute path",
  outside: "points outside the repository",
  "whole-repository": "names the whole repository",
  "symlink-outside": "is a symlink that points outside the repository",
  "bad-glob": "is not a valid pattern (an unclosed [ … ])",
} as const;

export type ExcludeReason = keyof typeof EXCLUDE_REASONS;

export const ExcludeEscapesRepo = defineError("ExcludeEscapesRepo", "git", (d: { entry: string; index: number; reason: keyof typeof EXCLUDE_REASONS }) => ({
  message: `exclude entry "${d.entry}" ${EXCLUDE_REASONS[d.reason]}`,
  where: `exclude_files[${d.index}]`,
  hint: "list paths relative to the repository root (src/debug.log, build/) or patterns (*.log, secrets/**)",
}));

/** `globalFile`: the file GIT_CONFIG_GLOBAL names, read instead of ~/.gitconfig and the XDG file (as git does). */
export const NoCommitAuthor = defineError("NoCommitAuthor", "git", (d: { root: string; missing: ("user.name" | "user.email")[]; globalFile?: string }) => ({
  message: `no commit author: ${d.missing.join(" and ")} is not set in the repository${d.globalFile ? ` or GIT_CONFIG_GLOBAL (${d.globalFile})` : ", ~/.gitconfig or $XDG_CONFIG_HOME/git/config"}`,
  where: d.root,
  hint: 'run `git config --global user.name "Your Name"` and `git config --global user.email you@example.com` (or set GIT_AUTHOR_NAME / GIT_AUTHOR_EMAIL)',
}));

/** The repository has no commit for a branch (`branch`) or a worktree (no branch) to start from. */
export const NoCommitsYet = defineError("NoCommitsYet", "git", (d: { root: string; branch?: string }) => ({
  message:
    d.branch === undefined
      ? "the repository has no commits yet, so a worktree has nothing to check out"
      : `the repository has no commits yet, so branch "${d.branch}" has nothing to start from`,
  where: d.root,
  hint: FIRST_COMMIT,
}));

/** The branch is checked out in another worktree (`from` says which check found it). */
export const BranchCheckedOutElsewhere = defineError(
  "BranchCheckedOutElsewhere",
  "git",
  (d: { branch: string; worktree: string; root: string; from: "switch" | "worktree" }) =>
    d.from === "switch"
      ? {
          message: `branch "${d.branch}" is already checked out in the worktree ${d.worktree}`,
          where: d.root,
          hint: `finish or remove that worktree (git worktree remove ${d.worktree}), or choose another branch name`,
        }
      : {
          message: `branch "${d.branch}" is already checked out in ${d.worktree}`,
          where: d.worktree,
          hint: "finish the session that uses it, or choose another branch name",
        },
);

export const UncommittedChangesInTheWay = defineError("UncommittedChangesInTheWay", "git", (d: { branch: string; files: string[]; root: string }) => ({
  message: `cannot switch to branch "${d.branch}": uncommitted changes to ${d.files.slice(0, 5).join(", ")}${d.files.length > 5 ? ` and ${d.files.length - 5} more` : ""} would be overwritten`,
  where: d.root,
  hint: "commit or stash those changes first (git stash), then run again",
}));

export const InvalidBranchName = defineError("InvalidBranchName", "git", (d: { branch: string }) => ({
  message: `"${d.branch}" is not a valid branch name`,
  where: "branch",
  hint: "use letters, digits, '-', '_', '.' and '/' separators (for example feature/rate-limiting)",
}));

export const InvalidWorktreeName = defineError("InvalidWorktreeName", "git", (d: { slug: string }) => ({
  message: `"${d.slug}" cannot name a worktree folder`,
  where: "slug",
  hint: "use letters, digits, '.', '_' and '-'",
}));

export const WorktreeOnOtherBranch = defineError("WorktreeOnOtherBranch", "git", (d: { path: string; branch: string | null; expected: string }) => ({
  message: `the worktree ${d.path} exists on branch "${d.branch ?? "(detached)"}", not "${d.expected}"`,
  where: d.path,
  hint: `remove it (git worktree remove ${d.path}) or choose another feature name`,
}));

export const WorktreePathTaken = defineError("WorktreePathTaken", "git", (d: { path: string; mainRoot: string }) => ({
  message: `${d.path} already exists and is not a worktree of ${d.mainRoot}`,
  where: d.path,
  hint: "move or delete that folder, then run again",
}));

export const NotALinkedWorktree = defineError("NotALinkedWorktree", "git", (d: { path: string; mainRoot: string }) => ({
  message: `${d.path} is not a linked worktree of ${d.mainRoot}`,
  where: d.path,
  hint: "see `git worktree list`",
}));

export const EmptyCommitMessage = defineError("EmptyCommitMessage", "git", (_: Record<string, never>) => ({
  message: "the commit message is empty",
  where: "commit_message",
  hint: "write a commit message or leave it out to get a drafted one",
}));

/**
 * Nothing is left to commit: no change at all (`changed` 0), every changed file excluded, or
 * only files that were uncommitted before the run and unchanged by it (`preexisting`).
 */
export const NothingToCommit = defineError("NothingToCommit", "git", (d: { root: string; changed: number; excluded?: number; preexisting?: number }) => ({
  message: `nothing to commit: ${
    d.changed === 0
      ? "the working tree matches HEAD"
      : !d.preexisting
        ? `all ${d.changed} changed files are excluded`
        : d.preexisting === d.changed
          ? `the run changed no file (the ${d.changed} uncommitted file(s) from before the run are left as they were)`
          : `the ${d.changed} changed files are excluded (${d.excluded ?? 0}) or were uncommitted before the run and unchanged by it (${d.preexisting})`
  }`,
  where: d.root,
  hint: "make changes or shorten the exclude list",
}));

/** An object the new commit needs did not read back intact: the branch was not moved. */
export const ObjectUnreadable = defineError("ObjectUnreadable", "git", (d: { root: string; oid: string; what: string; reason: string }) => ({
  message: `the commit was not recorded: ${d.what} (${d.oid.slice(0, 10)}) does not read back intact (${d.reason})`,
  where: d.root,
  hint: "the disk may be full or failing; free space, check `git fsck`, then `agentmux resume` commits again",
}));

/** Switching the checkout would overwrite uncommitted changes: nothing was touched. */
export const CheckoutWouldOverwrite = defineError("CheckoutWouldOverwrite", "git", (d: { root: string; target: string; files: string[] }) => ({
  message: `cannot switch to ${d.target}: uncommitted changes to ${listFiles(d.files)} would be overwritten`,
  where: d.root,
  hint: "commit or stash those changes first (git stash), or start the run in its own worktree (--worktree)",
}));

/** `github.base_branch` names a branch that exists neither locally nor on origin. */
export const BaseBranchMissing = defineError("BaseBranchMissing", "config", (d: { root: string; branch: string }) => ({
  message: `the base branch "${d.branch}" (github.base_branch) exists neither locally nor as origin/${d.branch}`,
  where: "github.base_branch",
  hint: `fetch it (git fetch origin ${d.branch}), or set github.base_branch to an existing branch (or null for the repository's default branch)`,
}));

/** The first few paths of a list, for messages. */
export function listFiles(files: string[], max = 5): string {
  return files.slice(0, max).join(", ") + (files.length > max ? ` and ${files.length - max} more` : "");
}

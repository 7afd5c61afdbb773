import { AgentmuxError, defineError } from "../../errors.ts";

/**
 * The one place a failed write is named: the system's code (ENOSPC, EROFS, EACCES…) is said even
 * when a wrapper's message dropped it, and the hint says what to do about that code. Every write
 * path that turns a file-system error into a message goes through here: git operations
 * (effects/git/repo.ts wrapGitError), session files (session/file-io.ts: state, decisions,
 * requests), output logs (effects/process/capped-log.ts), worktree creation.
 */

/** The errno-style code of an error or of one of its causes, if any. */
export function systemCode(e: unknown): string | undefined {
  for (let c: unknown = e, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    const own = (c as { code?: unknown }).code;
    if (typeof own === "string" && /^E[A-Z]{2,}$/.test(own)) return own;
  }
  return undefined;
}

/** An error's message, naming the system's code when the message does not. */
export function withSystemCode(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const code = systemCode(e);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** What to do about a write that failed with `code`. */
export function writeHint(code: string | undefined): string | undefined {
  if (code === "ENOSPC" || code === "EDQUOT") return "the disk (or your quota) is full: free some space and try again; nothing half-written was left";
  if (code === "EROFS") return "the file system is mounted read-only: remount it read-write (or work in a writable folder) and try again";
  if (code === "EACCES" || code === "EPERM") return "you may not write there: check the folder's owner and permissions";
  if (code === "EIO") return "the disk reported an I/O error: check it before going on";
  return undefined;
}

export const WriteFailed = defineError("WriteFailed", "io", (d: { what: string; path: string; detail: string; code?: string }) => ({
  message: `could not write ${d.what}: ${d.detail}`,
  where: d.path,
  hint: writeHint(d.code),
}));

/**
 * `e` (a failed write of `what` at `path`) as a named WriteFailed; a named agentmux error passes
 * through, and so does ENOENT (a missing folder: callers tell a deleted session folder by it).
 */
export function writeFailed(what: string, path: string, e: unknown): unknown {
  if (e instanceof AgentmuxError) return e;
  const code = systemCode(e);
  if (code === undefined || code === "ENOENT" || code === "EXDEV") return e;
  return new WriteFailed({ what, path, detail: withSystemCode(e), code }, { cause: e });
}

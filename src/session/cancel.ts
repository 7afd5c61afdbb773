import type { CancelRequest } from "../schema/cancel-request.ts";
import { inspectSessionFile, takeSessionFile, writeSessionFile } from "./file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";

const CANCEL = SESSION_FILES.cancelRequest;

/** Ask the session's orchestrator to cancel the run (monitor, home screen, launcher signals). */
export function requestCancel(sessionDir: string, by: CancelRequest["by"], signal?: CancelRequest["signal"]): void {
  writeSessionFile(sessionDir, CANCEL, { at: new Date().toISOString(), by, ...(signal ? { signal } : {}) });
}

export type TakenCancel = { request: CancelRequest | null };

/**
 * Claim the pending cancel request, exactly once: it is renamed away (atomic, so two readers
 * can never both take it), read and deleted. Returns null when there is none; `request` is
 * null when the file was there but unreadable (still a cancel: someone asked for it).
 */
export function takeCancelRequest(sessionDir: string): TakenCancel | null {
  const taken = takeSessionFile(sessionDir, CANCEL);
  return taken === null ? null : { request: taken.ok ? taken.value : null };
}

/** The pending cancel request as it reads now: absent, valid, or not (yet) valid. */
export function peekCancelRequest(sessionDir: string): "none" | "valid" | "invalid" {
  const r = inspectSessionFile(sessionDir, CANCEL);
  return r.ok ? "valid" : r.missing ? "none" : "invalid";
}

/** Drop a cancel request nobody applied (before a resume: the user asked to go on). */
export function dropCancelRequest(sessionDir: string): boolean {
  return takeCancelRequest(sessionDir) !== null;
}

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeJsonAtomic } from "../effects/fs/atomic.ts";
import { CANCEL_REQUEST_FILE, CancelRequest } from "../schema/cancel-request.ts";
import { claimFile } from "./claim.ts";

/** Ask the session's orchestrator to cancel the run (monitor, home screen, launcher signals). */
export function requestCancel(sessionDir: string, by: CancelRequest["by"], signal?: CancelRequest["signal"]): void {
  const req: CancelRequest = { at: new Date().toISOString(), by, ...(signal ? { signal } : {}) };
  writeJsonAtomic(join(sessionDir, CANCEL_REQUEST_FILE), CancelRequest.parse(req));
}

export type TakenCancel = { request: CancelRequest | null };

/**
 * Claim the pending cancel request, exactly once: it is renamed away (atomic, so two readers
 * can never both take it), read and deleted. Returns null when there is none; `request` is
 * null when the file was there but unreadable (still a cancel: someone asked for it).
 */
export function takeCancelRequest(sessionDir: string): TakenCancel | null {
  const text = claimFile(join(sessionDir, CANCEL_REQUEST_FILE));
  if (text === null) return null;
  try {
    const parsed = CancelRequest.safeParse(JSON.parse(text));
    return { request: parsed.success ? parsed.data : null };
  } catch {
    return { request: null };
  }
}

/** The pending cancel request as it reads now: absent, valid, or not (yet) valid JSON. */
export function peekCancelRequest(sessionDir: string): "none" | "valid" | "invalid" {
  let text: string;
  try {
    text = readFileSync(join(sessionDir, CANCEL_REQUEST_FILE), "utf8");
  } catch {
    return "none";
  }
  try {
    return CancelRequest.safeParse(JSON.parse(text)).success ? "valid" : "invalid";
  } catch {
    return "invalid";
  }
}

/** Drop a cancel request nobody applied (before a resume: the user asked to go on). */
export function dropCancelRequest(sessionDir: string): boolean {
  return takeCancelRequest(sessionDir) !== null;
}

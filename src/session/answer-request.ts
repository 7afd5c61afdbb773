import type { AnswerRequest } from "../schema/answer-request.ts";
import { inspectSessionFile, takeSessionFile, writeSessionFile } from "./file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";

const ANSWER = SESSION_FILES.answerRequest;

/** Ask the orchestrator to answer an agent's question (the web page). */
export function requestAnswer(sessionDir: string, r: Omit<AnswerRequest, "at">): void {
  writeSessionFile(sessionDir, ANSWER, { at: new Date().toISOString(), ...r });
}

/** The pending answer as it reads now: absent, valid, or not (yet) valid. */
export function peekAnswerRequest(sessionDir: string): "none" | "valid" | "invalid" {
  const r = inspectSessionFile(sessionDir, ANSWER);
  return r.ok ? "valid" : r.missing ? "none" : "invalid";
}

/** Claim the pending answer, exactly once (null: none, or unreadable: nothing to deliver). */
export function takeAnswerRequest(sessionDir: string): AnswerRequest | null {
  const taken = takeSessionFile(sessionDir, ANSWER);
  return taken?.ok ? taken.value : null;
}

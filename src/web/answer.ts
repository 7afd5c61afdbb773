import { rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ChangesText } from "../schema/artifacts/completion.ts";
import { inertText } from "../schema/inert-text.ts";
import type { State } from "../schema/state.ts";
import { approvalInputs } from "../session/approval-inputs.ts";
import { requestBudgetGoOn } from "../session/budget-request.ts";
import { requestCancel } from "../session/cancel.ts";
import { peekAnswerRequest, requestAnswer } from "../session/answer-request.ts";
import { hasVisibleText } from "../session/request.ts";
import { writeSessionFile } from "../session/file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { F } from "../protocol/paths.ts";
import { readState } from "../session/read.ts";
import { buildApproval, changesContent } from "../views/panel.ts";

/**
 * What the page may ask of a run, with `agentmux serve --answer`. Each answer is the file the
 * approval panel or the monitor writes for the same key, through the same functions, and only
 * when the run waits for it: the orchestrator applies it exactly as it applies theirs (the
 * commit checks the approval again), and nothing is written outside the session folder.
 */
export const ApproveBody = z.strictObject({
  exclude_files: z.array(z.string().min(1).max(4096)).max(10_000).default([]),
  commit_message: z
    .string()
    .max(64 * 1024)
    .optional(),
});
export const ChangesBody = z.strictObject({ text: z.string().max(256 * 1024) });
export const EmptyBody = z.strictObject({});
export const AnswerBody = z.strictObject({ agent: z.string().min(1).max(200), text: z.string().max(8000) });

export type Answer = "approve" | "changes" | "go-on" | "cancel" | "answer";
export const ANSWERS: readonly Answer[] = ["approve", "changes", "go-on", "cancel", "answer"];

export type AnswerResult = { ok: true; said: string } | { ok: false; status: 400 | 409; reason: string };

const refuse = (status: 400 | 409, reason: string): AnswerResult => ({ ok: false, status, reason });

const waitsForDecision = (s: State) => s.phase === "completing" && s.awaiting_decision === true && !s.approved_at;

/** A decision is written: the panel's work in progress on it goes, as when the panel writes it. */
function dropDrafts(dir: string): void {
  rmSync(join(dir, F.panelComments), { force: true });
  rmSync(join(dir, F.panelDraft), { force: true });
}

function problems(e: z.ZodError): string {
  return e.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ");
}

export async function answer(dir: string, what: Answer, body: unknown, live: boolean): Promise<AnswerResult> {
  if (!live) return refuse(409, "the run is not running: nothing can answer it (agentmux resume it first)");
  const state = readState(dir);
  switch (what) {
    case "approve": {
      const b = ApproveBody.safeParse(body);
      if (!b.success) return refuse(400, problems(b.error));
      if (!waitsForDecision(state)) return refuse(409, "the run does not wait for a decision now");
      const { files, proposedMessage } = await approvalInputs(dir, state);
      const unknown = b.data.exclude_files.filter((p) => !files.some((f) => f.path === p));
      if (unknown.length)
        return refuse(
          400,
          `exclude_files: not a file this run changed: ${unknown
            .slice(0, 5)
            .map((p) => JSON.stringify(inertText(p)))
            .join(", ")}`,
        );
      const approval = buildApproval(files, new Set(b.data.exclude_files), b.data.commit_message ?? proposedMessage);
      writeSessionFile(dir, SESSION_FILES.approval, approval);
      dropDrafts(dir);
      return {
        ok: true,
        said: `approved: committing ${files.length - approval.exclude_files.length} file(s)${approval.exclude_files.length ? `, ${approval.exclude_files.length} excluded` : ""}`,
      };
    }
    case "changes": {
      const b = ChangesBody.safeParse(body);
      if (!b.success) return refuse(400, problems(b.error));
      if (!waitsForDecision(state)) return refuse(409, "the run does not wait for a decision now");
      const content = changesContent(b.data.text);
      if (!ChangesText.safeParse(content).success) return refuse(400, "text: say what should change");
      writeSessionFile(dir, SESSION_FILES.changes, content);
      dropDrafts(dir);
      return { ok: true, said: "changes requested: the run goes back to planning with your notes" };
    }
    case "go-on": {
      if (!EmptyBody.safeParse(body).success) return refuse(400, "go-on takes no fields");
      if (!state.budget_reached?.paused) return refuse(409, "the run is not paused at its budget");
      requestBudgetGoOn(dir);
      return { ok: true, said: "going on past the budget" };
    }
    case "answer": {
      const b = AnswerBody.safeParse(body);
      if (!b.success) return refuse(400, problems(b.error));
      if (!hasVisibleText(b.data.text)) return refuse(400, "text: write the answer");
      const a = state.agents?.[b.data.agent];
      if (!a || a.status !== "needs_input" || !a.question) return refuse(409, `${b.data.agent} does not wait on a question now`);
      if (a.question.kind !== "question") return refuse(409, `${b.data.agent} shows a ${a.question.kind} dialog: answer it in its pane (agentmux attach)`);
      if (peekAnswerRequest(dir) !== "none") return refuse(409, "an answer is being delivered: wait a moment");
      requestAnswer(dir, { agent: b.data.agent, question_at: a.question.at, text: b.data.text.trim(), by: "web" });
      return { ok: true, said: `answer sent to ${b.data.agent}` };
    }
    case "cancel": {
      if (!EmptyBody.safeParse(body).success) return refuse(400, "cancel takes no fields");
      requestCancel(dir, "web");
      return { ok: true, said: "cancel requested: the run stops and stays resumable" };
    }
  }
}

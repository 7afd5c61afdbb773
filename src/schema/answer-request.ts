import { z } from "zod";

/** Session-relative path of an answer to an agent's question a UI writes; the orchestrator delivers it. */
export const ANSWER_REQUEST_FILE = ".runtime/answer_request.json";

/**
 * `<session>/.runtime/answer_request.json`: the user's answer to the question an agent asked
 * (written atomically by the web page; consumed once by the orchestrator, which types it into the
 * agent's pane as a prompt is delivered, only while that agent waits on that question).
 */
export const AnswerRequest = z.strictObject({
  at: z.string().min(1),
  agent: z.string().min(1),
  /** when the question was asked (the agent's question.at): an answer to an older question is not delivered */
  question_at: z.string().min(1),
  text: z.string().min(1).max(8000),
  by: z.enum(["web"]),
});
export type AnswerRequest = z.infer<typeof AnswerRequest>;

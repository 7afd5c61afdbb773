import { z } from "zod";

/** Session-relative path of the cancel request a UI writes; the orchestrator watches for it. */
export const CANCEL_REQUEST_FILE = ".runtime/cancel_request";

/**
 * `<session>/.runtime/cancel_request`: the user asked to cancel the run (written atomically,
 * consumed once by the orchestrator that applies it). `signal` names what the launcher of a
 * headless run received (`by: "cli"`); `by: "command"` is `agentmux cancel`; `by: "clean"` is
 * `agentmux clean`, which removes the session folder once the run has stopped; `by: "web"` is
 * the page of `agentmux serve --answer`.
 */
export const CancelRequest = z.strictObject({
  at: z.string().min(1),
  by: z.enum(["monitor", "home", "cli", "command", "clean", "web"]),
  signal: z.enum(["SIGINT", "SIGTERM", "SIGHUP"]).optional(),
});
export type CancelRequest = z.infer<typeof CancelRequest>;

/** The cause of a run stopped by `agentmux clean`: its folder goes, so there is nothing to resume. */
export const REMOVED_BY_CLEAN = "canceled by agentmux clean, which removes the session folder: nothing to resume";

/** The cause recorded in state.json for a cancel request (`null`: unreadable, still a cancel). */
export function cancelCause(req: CancelRequest | null): string {
  if (!req) return "canceled by a cancel request of unknown origin";
  if (req.by === "monitor") return "canceled by the user (monitor)";
  if (req.by === "home") return "canceled by the user (home screen)";
  if (req.by === "command") return "canceled by the user (agentmux cancel)";
  if (req.by === "web") return "canceled by the user (web page)";
  if (req.by === "clean") return REMOVED_BY_CLEAN;
  if (!req.signal || req.signal === "SIGINT") return "canceled by the user (Ctrl-C)";
  return `canceled: agentmux received ${req.signal}`;
}

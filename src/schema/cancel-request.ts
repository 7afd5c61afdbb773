import { z } from "zod";

/** Session-relative path of the cancel request a UI writes; the orchestrator watches for it. */
export const CANCEL_REQUEST_FILE = ".runtime/cancel_request";

/** `<session>/.runtime/cancel_request`: the user asked to cancel the run (written atomically). */
export const CancelRequest = z.strictObject({
  at: z.string().min(1),
  by: z.enum(["monitor", "home", "cli"]),
});
export type CancelRequest = z.infer<typeof CancelRequest>;

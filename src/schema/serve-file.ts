import { z } from "zod";

/**
 * `<project>/.agentmux/.sessions/.serve.json` (0600, beside the sessions it shows, so git already
 * ignores it): where a running `agentmux serve` answers and its token. The notifier reads the
 * address from it to link a notification to the page; the user reads the token from it when the
 * printed link is gone. Removed when the server stops.
 */
export const ServerFile = z.strictObject({
  url: z.string(),
  /** this project's index in the server's list: its runs' pages are `<url>#/run/<index>/<id>` */
  index: z.number().int().min(0),
  token: z.string(),
  pid: z.number().int(),
  answer: z.boolean(),
  started_at: z.string(),
});
export type ServerFile = z.infer<typeof ServerFile>;

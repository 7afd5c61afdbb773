import { SessionNotRunning } from "../session/errors.ts";
import { NeedsTerminal } from "./errors.ts";
import { attachRunning } from "../launcher/attach.ts";
import { termUnusable } from "../launcher/terminal.ts";
import { resolveSession } from "../session/resolve.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import type { attach } from "./specs/sessions.ts";

/** Attach the terminal to a running session's tmux session (after a detach or a closed terminal). */
export async function run({ positionals }: ParsedArgs<typeof attach>): Promise<number> {
  // unnamed: the newest running session, though a finished one may be newer
  const s = await resolveSession(findProjectDir(), positionals[0], (x) => !!x.state && x.live);
  if (!s.state || !s.live) {
    throw new SessionNotRunning({ id: s.id, finished: s.state?.phase === "done" });
  }
  if (!process.stdout.isTTY || termUnusable()) throw new NeedsTerminal({ command: "attach", id: s.id });
  return attachRunning({ sessionDir: s.dir, state: s.state, socket: s.socket });
}

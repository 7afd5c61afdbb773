import { AgentmuxError } from "../errors.ts";
import { attachRunning } from "../launcher/attach.ts";
import { resolveSession } from "../session/resolve.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import type { attach } from "./specs/sessions.ts";

/** Attach the terminal to a running session's tmux session (after a detach or a closed terminal). */
export async function run({ positionals }: ParsedArgs<typeof attach>): Promise<number> {
  const s = await resolveSession(findProjectDir(), positionals[0]);
  if (!s.state || !s.live) {
    throw new AgentmuxError("session", `session ${s.id} is not running`, { hint: s.state?.phase === "done" ? "it has finished" : `resume it with: agentmux resume ${s.id}` });
  }
  if (!process.stdout.isTTY) throw new AgentmuxError("usage", "attach needs a terminal", { hint: `agentmux status ${s.id} works without one`, exitCode: 2 });
  return attachRunning({ sessionDir: s.dir, state: s.state, socket: s.socket });
}

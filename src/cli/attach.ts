import { AgentmuxError } from "../errors.ts";
import { attachRunning } from "../launcher/attach.ts";
import { resolveSession } from "../session/list.ts";
import { findProjectDir } from "../session/project.ts";
import { parseArgs } from "./args.ts";

/** Attach the terminal to a running session's tmux session (after a detach or a closed terminal). */
export async function run(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs("attach", argv, { flags: {}, maxPositionals: 1 });
  if (flags.help) {
    process.stdout.write("Usage: agentmux attach [session]\n\nAttach this terminal to a running session (default: the newest). A run that waits for your\napproval shows its approval panel again; when the run ends while you watch, you see how.\n");
    return 0;
  }
  const s = await resolveSession(findProjectDir(), positionals[0]);
  if (!s.state || !s.live) {
    throw new AgentmuxError("session", `session ${s.id} is not running`, { hint: s.state?.phase === "done" ? "it has finished" : `resume it with: agentmux resume ${s.id}` });
  }
  if (!process.stdout.isTTY) throw new AgentmuxError("usage", "attach needs a terminal", { hint: `agentmux status ${s.id} works without one`, exitCode: 2 });
  return attachRunning({ sessionDir: s.dir, state: s.state, socket: s.socket });
}

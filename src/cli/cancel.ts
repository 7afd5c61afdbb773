import { SessionNotRunning } from "../session/errors.ts";
import { phaseEnded } from "../schema/catalog.ts";
import { requestCancel } from "../session/cancel.ts";
import { waitUntil } from "../effects/wait.ts";
import { liveOrchestrator } from "../session/liveness.ts";
import { resolveSession } from "../session/resolve.ts";
import type { SessionSummary } from "../session/list.ts";
import { findProjectDir } from "../session/project.ts";
import { readState } from "../session/read.ts";
import { CancelNotApplied } from "./errors.ts";
import type { ParsedArgs } from "./args.ts";
import type { cancel } from "./specs/sessions.ts";

/** How long `cancel` waits for the orchestrator to stop the run before it says it did not. */
const STOP_WAIT_MS = 60_000;

const running = (s: SessionSummary) => !!s.state && !s.archived && !phaseEnded(s.state.phase) && liveOrchestrator(s.dir) !== null;

/** Cancel a running session through its orchestrator (the cancel request the monitor writes too). */
export async function run({ positionals, flags }: ParsedArgs<typeof cancel>): Promise<number> {
  // unnamed: the newest running session (else the newest, refused below as not running)
  const s = await resolveSession(findProjectDir(), positionals[0], running);
  // a live tmux session whose orchestrator is gone would never apply the request
  if (!running(s)) throw new SessionNotRunning({ id: s.id, finished: s.state?.phase === "done" });
  const phase = s.state!.phase;
  requestCancel(s.dir, "command");
  if (flags["no-wait"]) {
    process.stdout.write(`cancel requested for ${s.id} (${phase}); see: agentmux status ${s.id}\n`);
    return 0;
  }
  if (!(await waitUntil(() => liveOrchestrator(s.dir) === null, { timeoutMs: STOP_WAIT_MS, intervalMs: 50 }))) {
    throw new CancelNotApplied({ id: s.id, seconds: STOP_WAIT_MS / 1000 });
  }
  const end = (() => {
    try {
      return readState(s.dir);
    } catch {
      return null; // a successful run removes its folder: it finished before the cancel was applied
    }
  })();
  if (end?.phase === "failed" && end.interruption_category === "canceled") {
    process.stdout.write(`canceled ${s.id} in phase ${phase}; the session is kept\nresume with: agentmux resume ${s.id}\n`);
    return 0;
  }
  process.stdout.write(`${s.id} ended before the cancel was applied: ${end ? end.phase : "finished"}; see: agentmux status ${s.id}\n`);
  return 0;
}

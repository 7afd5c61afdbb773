import type { Event } from "../schema/events.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import { serverRunning } from "../effects/tmux/ops.ts";
import { monotonicClock, type Clock } from "../effects/clock.ts";

/**
 * The run's tmux session (or its whole server) disappearing — killed, crashed, its last window
 * closed — ends the run the same way whichever sign comes first (a pane vanishing, the
 * watchdog's check): failed, exit 1, with a cause that says what is gone. Reported once.
 */
export class TmuxLoss {
  private reported = false;
  private inflight: Promise<boolean> | null = null;

  constructor(
    private readonly tmux: Tmux,
    private readonly session: string,
    private readonly push: (e: Event) => void,
    private readonly clock: Clock = monotonicClock,
  ) {}

  /** True when the session is gone (and then the loss is reported, once). */
  check(): Promise<boolean> {
    if (this.reported) return Promise.resolve(true);
    this.inflight ??= this.probe().finally(() => (this.inflight = null));
    return this.inflight;
  }

  private async probe(): Promise<boolean> {
    if (await this.tmux.hasSession(this.session)) return false;
    await this.clock.sleep(200); // confirm: never end a run on one failed query
    if (await this.tmux.hasSession(this.session)) return false;
    const serverUp = await serverRunning(this.tmux);
    this.reported = true;
    this.push({
      type: "run_lost",
      at: new Date().toISOString(),
      reason: serverUp
        ? `the tmux session ${this.session} was closed (killed, or its last window closed); its agents stopped with it`
        : `the tmux server (socket ${this.tmux.socket}) is gone (killed or crashed); the run's agents stopped with it`,
    });
    return true;
  }

  /** A pane exited: an agent's own exit, unless the whole session went (then that is the news). */
  paneExited(pane: string, forward: (pane: string) => void): void {
    void this.check().then((gone) => {
      if (!gone) forward(pane);
    });
  }
}

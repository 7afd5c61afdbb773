import { compileGate, snapshot, type Snapshot } from "../effects/tmux/screen.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import type { Logger } from "../effects/log.ts";
import type { ReadyGate } from "../schema/config.ts";
import { monotonicClock, type Clock } from "../effects/clock.ts";

/** how often a first start's pane is looked at */
export const POLL_MS = 250;
/** the longest a start waits on an earlier first start of its CLI */
export const MAX_WAIT_MS = 90_000;

/** One look at a pane (tmux's snapshot; a test's: a screen it sets by hand). */
export type PaneLook = (pane: string) => Promise<Snapshot>;

/**
 * First starts of one CLI, one after another (#27). A CLI's first start in a run fills its
 * caches (opencode fetched its provider package for 56–90 s on a loaded machine) and two at
 * once fought over them: one pane stayed blank for 4 minutes. So the second start of a CLI
 * waits until the first shows its ready prompt or a trust dialog (it has loaded: the dialog is
 * answered by its prompt's delivery, which may come after this start), or exits, or MAX_WAIT_MS;
 * after that, starts go ahead at once. Only for a CLI whose provider says `first_start_alone`
 * (opencode): the others' second starts (pre-starts beside the first agent) go at once.
 */
export class FirstStarts {
  /** command → the first start's readiness (resolves, never rejects) */
  private readonly first = new Map<string, Promise<void>>();

  private readonly look: PaneLook;

  constructor(
    tmux: Tmux | PaneLook,
    private readonly log: Logger,
    private readonly clock: Clock = monotonicClock,
  ) {
    this.look = typeof tmux === "function" ? tmux : (pane) => snapshot(tmux, pane);
  }

  /** Wait, if need be, before starting `command`; `started` is then told the new pane, to be watched when it is the first. */
  async before(command: string, agent: string): Promise<(pane: string, ready: ReadyGate, trust?: readonly { detect: string }[]) => void> {
    const earlier = this.first.get(command);
    if (earlier) {
      const t = this.clock.now();
      await earlier;
      const waited = Math.round(this.clock.now() - t);
      if (waited > 50)
        this.log(`${agent}: started after the first ${command} of the run got ready (waited ${waited} ms)`, { agent, data: { waited_ms: waited } });
      return () => {};
    }
    let settle!: () => void;
    this.first.set(command, new Promise<void>((r) => (settle = r)));
    return (pane, ready, trust = []) => void this.watch(pane, ready, trust).finally(settle);
  }

  private async watch(pane: string, ready: ReadyGate, trust: readonly { detect: string }[]): Promise<void> {
    const gate = compileGate(ready);
    const dialogs = trust.map((t) => new RegExp(t.detect, "m"));
    const until = this.clock.now() + Math.min(ready.timeout_ms, MAX_WAIT_MS);
    while (this.clock.now() < until) {
      const snap = await this.look(pane).catch(() => null);
      if (!snap || snap.dead) return;
      if (dialogs.some((re) => re.test(snap.screen))) return;
      if (gate.ready ? gate.ready.test(snap.screen) && !gate.isBusy(snap) : snap.screen.trim() !== "") return;
      await this.clock.sleep(POLL_MS);
    }
  }
}

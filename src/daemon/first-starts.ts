import { compileGate, snapshot } from "../effects/tmux/screen.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import type { Logger } from "../effects/log.ts";
import type { ReadyGate } from "../schema/config.ts";

const POLL_MS = 250;
/** the longest a start waits on an earlier first start of its CLI */
const MAX_WAIT_MS = 90_000;

/**
 * First starts of one CLI, one after another (#27). A CLI's first start in a run fills its
 * caches (opencode fetched its provider package for 56–90 s on a loaded machine) and two at
 * once fought over them: one pane stayed blank for 4 minutes. So the second start of a CLI
 * waits until the first shows its ready prompt or a trust dialog (it has loaded: the dialog is
 * answered by its prompt's delivery, which may come after this start), or exits, or MAX_WAIT_MS;
 * after that, starts go ahead at once. The simulated agent is not a CLI to wait for.
 */
export class FirstStarts {
  /** command → the first start's readiness (resolves, never rejects) */
  private readonly first = new Map<string, Promise<void>>();

  constructor(
    private readonly tmux: Tmux,
    private readonly log: Logger,
  ) {}

  /** Wait, if need be, before starting `command`; `started` is then told the new pane, to be watched when it is the first. */
  async before(command: string, agent: string): Promise<(pane: string, ready: ReadyGate, trust?: readonly { detect: string }[]) => void> {
    const earlier = this.first.get(command);
    if (earlier) {
      const t = performance.now();
      await earlier;
      const waited = Math.round(performance.now() - t);
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
    const until = performance.now() + Math.min(ready.timeout_ms, MAX_WAIT_MS);
    while (performance.now() < until) {
      const snap = await snapshot(this.tmux, pane).catch(() => null);
      if (!snap || snap.dead) return;
      if (dialogs.some((re) => re.test(snap.screen))) return;
      if (gate.ready ? gate.ready.test(snap.screen) && !gate.isBusy(snap) : snap.screen.trim() !== "") return;
      await Bun.sleep(POLL_MS);
    }
  }
}

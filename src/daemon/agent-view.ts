import type { Layout } from "../effects/tmux/layout.ts";
import type { Logger } from "../effects/log.ts";
import { isGone } from "../effects/tmux/errors.ts";

/**
 * The agents' panes on screen: as many beside the monitor as fit one above the other, the others
 * working on, parked; a relaunched agent in its old pane's place. A layout change that fails
 * costs the view, not the run.
 */
export class AgentView {
  constructor(private readonly o: { layout: Layout; log: Logger }) {}

  /** Show these agents' panes (agent → pane, in order); says which work on parked. */
  async show(panes: [agent: string, pane: string][]): Promise<void> {
    let shown: string[];
    try {
      shown = await this.o.layout.show(panes.map(([, pane]) => pane));
    } catch (e) {
      return this.failed(e);
    }
    if (shown.length < panes.length) {
      const agents = panes.map(([agent]) => agent);
      const parked = agents.slice(shown.length);
      this.o.log(
        `showing ${shown.length} of ${panes.length} agents, as many as fit one above the other; ${parked.join(", ")} work on parked (select one in the monitor and press Enter to see it)`,
        { data: { shown: agents.slice(0, shown.length), parked } },
      );
    }
  }

  /** Where `old` is on screen, for its relaunch to take (null: not shown). */
  placeOf(old: string | undefined): number | null {
    const slot = old ? this.o.layout.visiblePanes().indexOf(old) : -1;
    return slot >= 0 ? slot : null;
  }

  /** `pane` takes `old`'s place on screen, at `slot`. */
  async replace(old: string | undefined, pane: string, slot: number): Promise<void> {
    const visible = this.o.layout.visiblePanes().filter((p) => p !== old);
    visible.splice(Math.min(slot, visible.length), 0, pane);
    await this.o.layout.show(visible).catch((e) => this.failed(e));
  }

  /**
   * A layout change that failed costs the view, not the run: the agents work on and `agentmux
   * attach` shows them. A tmux server or session that is gone is not a layout problem: it is raised.
   */
  failed(e: unknown): void {
    if (isGone(e)) throw e;
    this.o.log(`could not lay out the agents' panes: ${(e as Error).message}; the agents work on (agentmux attach shows the session)`, { level: "warn" });
  }
}

import type { Layout } from "../effects/tmux/layout.ts";
import { selectPane } from "../effects/tmux/ops.ts";
import type { Tmux } from "../effects/tmux/runner.ts";

type PanelOptions = { tmux: Tmux; layout: Layout; selfCommand: string[]; sessionDir: string; workDir: string };

/** The completion panel's pane: its own exit is the user's decision being written, never an interruption. */
export class CompletionPanel {
  #pane: string | null = null;

  constructor(private readonly o: PanelOptions) {}

  async show(): Promise<void> {
    if (this.#pane && (await this.o.layout.isAlive(this.#pane))) {
      await this.o.layout.show([this.#pane]);
      await selectPane(this.o.tmux, this.#pane).catch(() => {});
      return;
    }
    const { pane } = await this.o.layout.createPane({
      command: [...this.o.selfCommand, "panel", this.o.sessionDir],
      env: {},
      cwd: this.o.workDir,
      label: "[completion] approve or request changes",
    });
    this.#pane = pane;
    await this.o.layout.show([pane]);
    // the decision is made here: give the panel the keyboard
    await selectPane(this.o.tmux, pane).catch(() => {});
  }

  async close(): Promise<void> {
    if (!this.#pane) return;
    const pane = this.#pane;
    this.#pane = null;
    await this.o.layout.kill(pane);
  }

  /**
   * Whether the pane that exited is the panel's (true: handled). The panel exits once the decision
   * file is written, or when the user quits it (it can be shown again): expected, never an
   * interruption; its dead pane goes.
   */
  exited(pane: string): boolean {
    if (pane !== this.#pane) return false;
    this.#pane = null;
    void this.o.layout.kill(pane).catch(() => {});
    return true;
  }
}

import type { Tmux } from "./runner.ts";
import { snapshot, type Snapshot } from "./screen.ts";

/**
 * What a delivery does to a pane: look at it, send it keys, paste text into it. tmux's by default
 * (tmuxPane); a unit test's screen it drives by hand.
 */
export type PaneIO = {
  look(pane: string): Promise<Snapshot>;
  keys(pane: string, keys: string[]): Promise<void>;
  paste(pane: string, text: string): Promise<void>;
};

export const tmuxPane = (tmux: Tmux): PaneIO => ({
  look: (pane) => snapshot(tmux, pane),
  keys: async (pane, keys) => void (await tmux.run(["send-keys", "-t", pane, ...keys])),
  async paste(pane, text) {
    const buffer = `amx-${crypto.randomUUID()}`;
    await tmux.run(["load-buffer", "-b", buffer, "-", ";", "paste-buffer", "-p", "-d", "-b", buffer, "-t", pane], text);
  },
});

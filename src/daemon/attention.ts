import { openSync, writeSync, closeSync } from "node:fs";
import { attachedClients, showMessage } from "../effects/tmux/agent-ops.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import { inertLine } from "../schema/inert-text.ts";

/**
 * How long the status-line message shows. tmux freezes the client's screen while a message shows
 * (the panes' output is not drawn until it goes or a key is pressed): long enough to be seen,
 * short enough that the monitor and the agents' panes are not stale for long.
 */
const MESSAGE_MS = 3000;

/**
 * Ask the person at the terminal to look: a message in the status line of every tmux client
 * attached to the session, plus a bell and a desktop notification (OSC 9 for iTerm2/kitty/
 * WezTerm/Windows Terminal, OSC 777 for urxvt/foot/VTE) written to each client's own terminal.
 * Nobody attached (headless runs): nothing to do. Never throws; returns how many were told.
 */
export async function callAttention(tmux: Tmux, session: string, text: string): Promise<number> {
  const clean = inertLine(text).slice(0, 200);
  const clients = await attachedClients(tmux, session).catch(() => []);
  for (const { client, tty } of clients) {
    await showMessage(tmux, client, `agentmux: ${clean}`, MESSAGE_MS).catch(() => null);
    if (!tty) continue;
    try {
      const fd = openSync(tty, "w");
      writeSync(fd, `\x07\x1b]9;agentmux: ${clean}\x07\x1b]777;notify;agentmux;${clean.replace(/;/g, ",")}\x07`);
      closeSync(fd);
    } catch {
      /* a terminal we may not write to: the status-line message is enough */
    }
  }
  return clients.length;
}

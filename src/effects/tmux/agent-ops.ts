import { CLIENT_TTY, PANE_DEAD_STATUS } from "./formats.ts";
import { capturePane } from "./ops.ts";
import type { Tmux } from "./runner.ts";

/**
 * The tmux operations the agent runtime uses beyond layout and delivery: a dead pane's last
 * screen and exit status, keys into a dialog, and messages to the people attached.
 */

/**
 * tmux's own line under a dead pane ("Pane is dead (status 3, Fri Nov 27 10:59:29 2026)"). tmux
 * writes it after a linefeed that marks the row above as wrapped, so a joined capture glues it
 * to the program's last line when that row has text.
 */
const DEAD_PANE_NOTE = /Pane is dead \([^()\n]*\)\s*$/;

/**
 * The screen of a pane (also of a dead one, kept by remain-on-exit, without tmux's "Pane is
 * dead" line: the exit status is asked for on its own), or null when it is gone.
 */
export async function lastScreen(tmux: Tmux, pane: string): Promise<string | null> {
  const text = await capturePane(tmux, pane, { join: true }).catch(() => null);
  return text === null ? null : text.replace(DEAD_PANE_NOTE, "");
}

/** A dead pane's exit status; "" while tmux has not collected it yet (or the pane is gone). */
export async function deadPaneStatus(tmux: Tmux, pane: string): Promise<string> {
  const r = await tmux.exec(["display-message", "-p", "-t", pane, PANE_DEAD_STATUS.text]);
  return r.code === 0 ? PANE_DEAD_STATUS.parse(r.stdout.replace(/\n$/, "")).status.trim() : "";
}

/** Send tmux key names (e.g. Escape, Enter) to a pane. */
export async function sendKeys(tmux: Tmux, pane: string, keys: string[]): Promise<void> {
  await tmux.run(["send-keys", "-t", pane, ...keys]);
}

/** The people attached to a session with their terminals (not control-mode clients such as the orchestrator's own); none when nobody is. */
export async function attachedClients(tmux: Tmux, session: string): Promise<{ client: string; tty: string }[]> {
  const r = await tmux.exec(["list-clients", "-t", `=${session}`, "-F", CLIENT_TTY.text]);
  return r.code === 0
    ? CLIENT_TTY.parseLines(r.stdout)
        .filter((c) => c.control !== "1")
        .map(({ client, tty }) => ({ client, tty }))
    : [];
}

/** A message in one client's status line for `ms`; the text stays literal (tmux expands `#`). */
export async function showMessage(tmux: Tmux, client: string, text: string, ms: number): Promise<void> {
  await tmux.exec(["display-message", "-c", client, "-d", String(ms), text.replace(/#/g, "##")]);
}

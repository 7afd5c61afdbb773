import type { Event } from "../schema/events.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import type { Clock } from "../effects/clock.ts";
import type { Logger } from "../effects/log.ts";
import { deadPaneStatus, lastScreen, sendKeys } from "../effects/tmux/agent-ops.ts";
import type { AgentPane } from "./agent-types.ts";

const now = () => new Date().toISOString();
/** the lines of a dead pane's screen that go with its event */
const SCREEN_LINES = 20;
/** tmux 3.3a can leave pane_dead_status empty for a moment after the exit: asked again this often */
const STATUS_TRIES = 10;
const STATUS_EVERY_MS = 50;

/**
 * What reading an agent's screen decides: the event of a pane that exited (its last lines, kept by
 * remain-on-exit, and its exit status) and the keys that dismiss the dialog its CLI shows.
 */
export async function exitEvent(tmux: Tmux, clock: Clock, agent: string, pane: string, status?: string): Promise<Event> {
  const text = await lastScreen(tmux, pane);
  const screen =
    text === null
      ? []
      : text
          .split("\n")
          .map((l) => l.trimEnd())
          .filter((l) => l.trim())
          .slice(-SCREEN_LINES);
  let exit = status ?? "";
  for (let i = 0; !exit && text !== null && i < STATUS_TRIES; i++) {
    exit = await deadPaneStatus(tmux, pane);
    if (!exit) await clock.sleep(STATUS_EVERY_MS);
  }
  return {
    type: "pane_exited",
    at: now(),
    agent,
    ...(exit ? { exit_status: exit } : {}),
    ...(screen.length ? { screen } : {}),
    ...(text === null ? { detail: "the pane is gone" } : {}),
  };
}

/** Send the keys that dismiss the dialog the agent's CLI shows (headless: nobody can answer); its first dialog's, else Escape. */
export async function dismissDialog(o: { tmux: Tmux; log: Logger }, agent: string, a: AgentPane): Promise<void> {
  const screen = (await lastScreen(o.tmux, a.pane)) ?? "";
  const dialog = a.resolved.provider.dialogs.find((d) => new RegExp(d.detect, "m").test(screen)) ?? a.resolved.provider.dialogs[0];
  const keys = dialog?.dismiss ?? ["Escape"];
  o.log(`dismissing ${agent}'s dialog with ${keys.join(" ")}`, { event: "dialog_answered", agent, pane: a.pane, data: { keys } });
  await sendKeys(o.tmux, a.pane, keys).catch((e) => o.log(`could not dismiss ${agent}'s dialog: ${(e as Error).message}`));
}

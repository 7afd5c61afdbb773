import { runProcess } from "../process/run.ts";
import { PANE_FIT, ZOOMED } from "./formats.ts";
import type { Tmux } from "./runner.ts";

/**
 * What the person at the terminal meets: the prefix key of agentmux's session (it differs
 * when agentmux's tmux runs inside the user's own), a zoomed pane.
 */

/** The session's prefix key (`C-b`); null when the session (or the server) is gone. */
export async function sessionPrefix(tmux: Tmux, session: string): Promise<string | null> {
  // display-message answers even for a missing target; show-options fails for one
  const r = await tmux.exec(["show-options", "-Av", "-t", `=${session}:`, "prefix"]);
  if (r.code !== 0) return null;
  return r.stdout.trim() || "C-b";
}

export async function setSessionPrefix(tmux: Tmux, session: string, key: string): Promise<void> {
  await tmux.run(["set-option", "-t", `=${session}:`, "prefix", key]);
}

/**
 * The prefix agentmux's session should use for a terminal. Inside the user's own tmux ($TMUX
 * set), that tmux sees every key first: when its prefix is Ctrl-b, agentmux's becomes Ctrl-a,
 * so `Ctrl-b d` still detaches the user's tmux and `Ctrl-a d` detaches agentmux's. The
 * user's prefix is read from the user's own server (the environment's $TMUX).
 */
export async function prefixFor(env: Record<string, string | undefined> = process.env): Promise<string> {
  if (!env.TMUX) return "C-b";
  const r = await runProcess(["tmux", "show-options", "-gv", "prefix"], { env: { TMUX: env.TMUX }, timeoutMs: 2000 }).catch(() => null);
  const outer = r && r.code === 0 ? r.stdout.trim() : "C-b";
  return outer === "C-b" ? "C-a" : "C-b";
}

/**
 * Zoom a pane that is narrower than `minWidth` while its window is wider (the completion panel
 * beside the monitor on an 80-column terminal). True when it zoomed (give it back with setZoom).
 */
export async function zoomIfNarrow(tmux: Tmux, pane: string, minWidth: number): Promise<boolean> {
  const r = await tmux.exec(["display-message", "-p", "-t", pane, PANE_FIT.text]);
  if (r.code !== 0) return false;
  const f = PANE_FIT.parse(r.stdout.replace(/\n$/, ""));
  if (f.zoomed === "1" || f.panes === "1" || Number(f.pane) >= minWidth || Number(f.window) <= Number(f.pane)) return false;
  await tmux.run(["resize-pane", "-Z", "-t", pane]);
  return true;
}

/** Zoom a pane to its whole window (`on`), or give the zoom back; nothing when already so. */
export async function setZoom(tmux: Tmux, pane: string, on: boolean): Promise<boolean> {
  const r = await tmux.exec(["display-message", "-p", "-t", pane, ZOOMED.text]);
  if (r.code !== 0) return false;
  const { zoomed, panes } = ZOOMED.parse(r.stdout.replace(/\n$/, ""));
  if ((zoomed === "1") === on || (on && panes === "1")) return false;
  await tmux.run(["resize-pane", "-Z", "-t", pane]);
  return true;
}

import { PANE_STATE } from "./formats.ts";
import { captureArgs } from "./ops.ts";
import type { Tmux } from "./runner.ts";
import { snapshot, type Snapshot } from "./screen.ts";

const MARK = "@@amx-pane@@";

/**
 * One look at several panes in ONE tmux process (state flags, title, screen per pane): the
 * watchdog polls every agent a few times a second, and a tmux spawn per pane would cost a core.
 * A pane that vanished between the calls makes tmux stop the chain: then each pane is read alone.
 */
export async function snapshotMany(tmux: Tmux, panes: string[]): Promise<Map<string, Snapshot>> {
  const out = new Map<string, Snapshot>();
  if (!panes.length) return out;
  const args: string[] = [];
  for (const pane of panes) {
    if (args.length) args.push(";");
    args.push("display-message", "-p", "-t", pane, `${MARK}${pane}\t${PANE_STATE.text}`, ";", ...captureArgs(pane, { join: true }));
  }
  const r = await tmux.exec(args);
  if (r.code !== 0) {
    for (const pane of panes) {
      const snap = await snapshot(tmux, pane).catch(() => null);
      if (snap) out.set(pane, snap);
    }
    return out;
  }
  for (const part of r.stdout.split(MARK).slice(1)) {
    const nl = part.indexOf("\n");
    const head = nl < 0 ? part : part.slice(0, nl);
    const tab = head.indexOf("\t");
    const s = PANE_STATE.parse(head.slice(tab + 1));
    out.set(head.slice(0, tab).trim(), {
      dead: s.dead === "1",
      exitStatus: s.exitStatus,
      inMode: s.inMode === "1",
      title: s.title.trim(),
      screen: nl < 0 ? "" : part.slice(nl + 1),
    });
  }
  return out;
}

import { existsSync, watch } from "node:fs";
import { basename, join } from "node:path";
import { Tmux } from "../effects/tmux/runner.ts";
import { requestCancel } from "../session/cancel.ts";
import { requestPanel } from "../session/panel-request.ts";
import { requestBudgetGoOn } from "../session/budget-request.ts";
import { capturePane, selectPane } from "../effects/tmux/ops.ts";
import { sessionPrefix, setZoom } from "../effects/tmux/client.ts";
import { keyName } from "../views/keys.ts";
import { isTmuxFailure } from "../effects/tmux/errors.ts";
import { defaultSocket } from "../session/list.ts";
import { F } from "../protocol/paths.ts";
import { blessed, createScreen, drawLinks, linesToContent } from "./blessed.ts";
import { overlay, question } from "./overlay.ts";
import { budgetPause, monitorView } from "../views/monitor.ts";
import { readSnapshotInput } from "../report/read.ts";
import { snapshot, type SnapshotInput } from "../report/snapshot.ts";

const WATCHED = new Set<string>([F.state, F.runtime, F.createdFiles]);
const help = (prefix: string) => [
  "↑/↓    select an agent",
  "Enter  focus its pane (back here: click this pane,",
  `       or ${keyName(prefix)} then ←)`,
  "l      its recent output, full window",
  "a      open the approval panel (when it waits for you)",
  "g      go on past the budget (when it paused the agents)",
  "c      cancel the run",
  `${keyName(prefix)} d  detach: the run goes on; agentmux attach`,
  "?      this help",
  "",
  "Esc closes a window",
  ...(prefix === "C-b" ? [] : ["", `Inside your own tmux, agentmux's prefix is ${keyName(prefix)}:`, "Ctrl-b stays your tmux's."]),
];

/**
 * The session as the monitor reads it: the run API's input (report/read.ts). The monitor runs in
 * the run's tmux session and quits with it: to it the run is live. It never counts tool calls.
 */
const readInput = (dir: string): SnapshotInput => readSnapshotInput(dir, { id: basename(dir), live: true, now: Date.now(), countToolEvents: false });

/**
 * `agentmux monitor <session-dir>`: redraws on state.json / runtime_state.json /
 * created_files.log changes (fs.watch, debounced); only the clock ticks once a second. It draws
 * the run's snapshot (the run API), derived again for each frame.
 */
export async function runMonitor(dir: string): Promise<number> {
  let input = readInput(dir);
  let run = snapshot(input);
  let selected = 0;
  let modal = false;
  let prefix = "C-b";
  const screen = createScreen();
  // the view cuts every line to the width itself: blessed must never wrap one (a wrapped row shifts the rest)
  const body = blessed.box({ parent: screen, top: 0, left: 0, width: "100%", height: "100%", tags: true, wrap: false });
  const tmux = () => new Tmux(run.tmux?.socket ?? defaultSocket());

  const draw = () => {
    const now = Date.now();
    run = snapshot({ ...input, now });
    const rows = run.agents;
    selected = Math.max(0, Math.min(selected, rows.length - 1));
    const lines = monitorView(
      { run, now, selected: rows.length ? selected : undefined, prefix },
      { width: screen.width as number, height: screen.height as number },
    );
    body.setContent(linesToContent(lines));
    screen.render();
    if (!modal) drawLinks(screen, lines, 0, 0);
  };
  const reload = () => {
    try {
      input = readInput(dir);
    } catch {
      // a state.json mid-replace or briefly invalid: keep showing the last good one
    }
    draw();
  };

  let finish!: (code: number) => void;
  const done = new Promise<number>((r) => (finish = r));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher = watch(dir, (_e, name) => {
    if (name && !WATCHED.has(String(name)) && !String(name).startsWith(".state.json")) return;
    clearTimeout(timer);
    timer = setTimeout(() => (existsSync(dir) ? reload() : finish(0)), 16);
  });
  let seenAlive = false;
  let missing = 0;
  const tick = setInterval(async () => {
    if (!existsSync(join(dir, F.state))) return finish(0);
    if (!modal) draw();
    // the session's prefix changes when someone attaches from inside their own tmux
    const key = await sessionPrefix(tmux(), run.session_name).catch(() => null);
    if (key && key !== prefix) ((prefix = key), modal || draw());
    const alive = key !== null;
    if (alive) ((seenAlive = true), (missing = 0));
    else if (seenAlive && ++missing >= 2) finish(0);
  }, 1000);

  const selectedPane = () => run.agents[selected];
  screen.key(["up", "k"], () => (modal ? undefined : (selected--, draw())));
  screen.key(["down", "j"], () => (modal ? undefined : (selected++, draw())));
  screen.key(["enter"], async () => {
    const row = selectedPane();
    if (modal || !row?.pane) return;
    await selectPane(tmux(), row.pane, { window: true }).catch(() => {});
  });
  const open = (make: (close: () => void) => void) => {
    modal = true;
    make(() => {
      modal = false;
      draw();
    });
  };
  /** A window over the whole tmux window, not the monitor's narrow pane; the zoom ends with it. */
  const zoomedOverlay = async (label: string, text: string, opts: { scrollToEnd?: boolean } = {}) => {
    modal = true;
    const self = process.env.TMUX_PANE ?? run.tmux?.control_pane ?? undefined;
    const zoomed = self ? await setZoom(tmux(), self, true).catch(() => false) : false;
    overlay(
      screen,
      label,
      text,
      () => {
        if (zoomed && self) void setZoom(tmux(), self, false).catch(() => {});
        modal = false;
        draw();
      },
      opts,
    );
  };
  screen.key(["l"], async () => {
    const row = selectedPane();
    if (modal || !row) return;
    const text = row.pane
      ? await capturePane(tmux(), row.pane, { join: true, history: 200 }).then(
          (out) => out.replace(/\s+$/, ""),
          (e) => `no output: ${isTmuxFailure(e) ? e.data.stderr.trim() : (e as Error).message}`,
        )
      : "no output: the agent has no pane";
    await zoomedOverlay(` ${row.label} — recent output `, text, { scrollToEnd: true });
  });
  screen.key(["a"], () => {
    // the orchestrator shows the panel (again) when the run waits for a decision
    if (!modal && run.awaiting_decision) requestPanel(dir);
  });
  screen.key(["g"], () => {
    if (!modal && budgetPause(run)) requestBudgetGoOn(dir);
  });
  // the help too: squeezed into the 30-column monitor pane it wrapped into an unreadable column
  screen.key(["?"], () => void (!modal && zoomedOverlay(" keys ", help(prefix).join("\n"))));
  screen.key(["c", "C-c"], () => {
    if (modal) return;
    open((close) =>
      question(screen, "Cancel this run? y/N", (yes) => {
        if (yes) requestCancel(dir, "monitor");
        close();
      }),
    );
  });
  screen.on("resize", draw);
  draw();
  const code = await done;
  clearInterval(tick);
  watcher.close();
  screen.destroy();
  return code;
}

import { existsSync, realpathSync } from "node:fs";
import { DuplicatePane, PaneWrongDir, StartDirMissing } from "./errors.ts";
import type { Tmux, TmuxResult } from "./runner.ts";
import { chain, controlLayoutArgs, controlWidthFor, formatLiteral, startDirLiteral, paneCommand, pinWindowArgs, PLACEHOLDER_SCRIPT } from "./session.ts";
import { NEW_PANE, NEW_WINDOW, PANE_DEAD, PANE_IN_WINDOW, PANE_START, PANE_TITLE, SESSION_PANE, WINDOW_OF_PANE } from "./formats.ts";
import { capturePane } from "./ops.ts";
import { dropEnvFile, writeEnvFile } from "./env-file.ts";
import { inertLine } from "../../schema/inert-text.ts";

export type LayoutOptions = {
  session: string;
  controlPane: string;
  controlWidth: number;
  /** where panes' env files wait (0700) until each pane sources and deletes its own (env-file.ts) */
  envDir: string;
};
export type NewPane = {
  command: string[];
  /** the program's environment on top of the pane's; never passed in an argv */
  env: Record<string, string>;
  cwd: string;
  label: string;
  /** the pane appends its id here when its program exits (see watchPaneExits) */
  exitFile?: string;
  /** the size its parked window is pinned to (default: the session's size) */
  size?: { width: number; height: number };
};

const PARKED_WINDOW = "_hidden";
/**
 * A shown pane's least height, its label border included: an agent CLI needs about this many
 * rows to draw its input box, and agentmux to see a prompt land in it (in a 5-row pane the
 * simulated agent's input line and status overlap and the delivery check fails). The column
 * shows as many panes as fit; a parked pane keeps the full window size.
 */
export const MIN_PANE_ROWS = 10;
/** Pane labels (border and title) are cut to this many characters. */
export const LABEL_MAX = 200;

/**
 * The content zone to the right of the control pane, as ONE ordered list of visible panes.
 * Every other pane is parked in its own detached window named `_hidden`, pinned to the
 * session size so a parked agent keeps a full-size terminal. With nothing to show, a
 * placeholder pane fills the zone.
 */
export class Layout {
  private visible: string[] = [];
  private readonly expected = new Set<string>();
  /** inside `batch`: a killed pane's place is laid out once, at its end, unless something is shown before */
  private held = 0;
  private stale = false;
  private constructor(
    readonly tmux: Tmux,
    readonly opts: LayoutOptions,
    private readonly window: string,
    private readonly size: { width: number; height: number },
    private readonly placeholder: string,
  ) {}

  /** Attach to a session made by createSession (fresh or resumed): finds or creates the placeholder. */
  static async open(tmux: Tmux, opts: LayoutOptions): Promise<Layout> {
    const info = WINDOW_OF_PANE.parse(await tmux.run(["display-message", "-p", "-t", opts.controlPane, WINDOW_OF_PANE.text]));
    const window = info.window;
    const size = { width: Number(info.width), height: Number(info.height) };
    const panes = await listSessionPanes(tmux, opts.session);
    let placeholder = panes.find((p) => p.role === "placeholder")?.pane;
    if (!placeholder) {
      placeholder = await newParkedPane(tmux, opts.session, size, paneCommand(["sh", "-c", PLACEHOLDER_SCRIPT]), undefined);
      await tmux.run(["set-option", "-p", "-t", placeholder, "@amx_role", "placeholder"]);
    }
    const layout = new Layout(tmux, opts, window, size, placeholder);
    const shown = panes.filter((p) => p.window === window && p.pane !== opts.controlPane && p.pane !== placeholder);
    await layout.show(shown.map((p) => p.pane));
    return layout;
  }

  /** Start a command in a new parked pane; the pane's cwd is verified after creation. */
  async createPane(p: NewPane): Promise<{ pane: string; pid: number }> {
    if (!existsSync(p.cwd)) {
      throw new StartDirMissing({ dir: p.cwd, pane: p.label });
    }
    const envFile = Object.keys(p.env).length ? writeEnvFile(this.opts.envDir, p.env) : undefined;
    const pane = await newParkedPane(this.tmux, this.opts.session, p.size ?? this.size, paneCommand(p.command, { envFile, exitFile: p.exitFile }), p.cwd).catch(
      (e) => {
        dropEnvFile(envFile);
        throw e;
      },
    );
    await this.setLabel(pane, p.label);
    // pane_current_path reads /proc/<pid>/cwd and is briefly empty right after the fork
    let pid = "",
      path = "",
      dead = "";
    for (let i = 0; i < 100 && !path && dead !== "1"; i++) {
      if (i > 0) await Bun.sleep(10);
      ({ pid, path, dead } = PANE_START.parse(await this.tmux.run(["display-message", "-p", "-t", pane, PANE_START.text])));
    }
    if (dead === "1") dropEnvFile(envFile); // it never got to source it
    if (dead !== "1" && realpathSync(p.cwd) !== safeRealpath(path)) {
      this.expected.add(pane);
      await this.tmux.exec(["kill-pane", "-t", pane]);
      dropEnvFile(envFile);
      throw new PaneWrongDir({ pane: p.label, path, expected: p.cwd });
    }
    return { pane, pid: Number(pid) };
  }

  /**
   * These panes visible right of the control pane, top to bottom, as many of them as fit one
   * above the other (MIN_PANE_ROWS each); all others parked. Returns the panes shown.
   *
   * The right column is never left empty on the way (a pane coming takes the place of one
   * leaving, or joins beside one that stays or leaves after it): the control pane keeps its
   * width, so tmux never reflows the monitor's screen. One tmux call makes the whole change, and
   * one more pins the windows of panes parked with break-pane.
   */
  async show(panes: string[]): Promise<string[]> {
    if (new Set(panes).size !== panes.length) throw new DuplicatePane({ panes });
    const rows = PANE_IN_WINDOW.parseLines(await this.tmux.run(["list-panes", "-t", this.window, "-F", PANE_IN_WINDOW.text]));
    const fit = Math.max(1, Math.floor((Number(rows[0]!.height) + 1) / MIN_PANE_ROWS));
    const shown = panes.slice(0, fit);
    const target = shown.length > 0 ? shown : [this.placeholder];
    const current = rows.map((r) => r.pane).filter((p) => p !== this.opts.controlPane);
    let keep = 0;
    while (keep < current.length && keep < target.length && current[keep] === target[keep]) keep++;
    const width = controlWidthFor(Number(rows[0]!.width), this.opts.controlWidth);
    // the width first (the joins' own main-vertical layouts use it), the final layout last
    const [setWidth, ...finish] = controlLayoutArgs(this.window, this.opts.controlPane, width);
    const cmds: string[][] = [setWidth!];
    const broken: string[] = [];
    const park = (p: string) => (cmds.push(this.breakArgs(p)), broken.push(p));
    const leaving = current.slice(keep).filter((p) => !target.includes(p));
    const coming = target.slice(keep);
    if (current.length > 0 && leaving.length === current.length - keep) {
      // the usual handoff: each pane coming takes the place and size of one leaving (swap-pane
      // parks that one in the coming pane's pinned window), so a pane parked at the size it
      // gets is not resized at all; the rest join below or are parked
      const swaps = Math.min(coming.length, leaving.length);
      for (let j = 0; j < swaps; j++) cmds.push(["swap-pane", "-d", "-s", coming[j]!, "-t", leaving[j]!]);
      let prev = swaps > 0 ? coming[swaps - 1]! : target[keep - 1]!;
      for (const p of coming.slice(swaps)) {
        cmds.push(["join-pane", "-d", "-v", "-s", p, "-t", prev], ["select-layout", "-t", this.window, "main-vertical"]);
        prev = p;
      }
      leaving.slice(swaps).forEach(park);
    } else {
      // panes move within the column (or it is empty): join each after the previous one, beside
      // one that stays or leaves after them, so the column is never empty on the way
      const anchor = keep > 0 ? target[keep - 1] : current[0];
      leaving.filter((p) => p !== anchor).forEach(park);
      let prev = anchor;
      for (const p of coming) {
        cmds.push(prev === undefined ? ["join-pane", "-d", "-h", "-s", p, "-t", this.opts.controlPane] : ["join-pane", "-d", "-v", "-s", p, "-t", prev]);
        // even the column out before the next join splits its last pane
        cmds.push(["select-layout", "-t", this.window, "main-vertical"]);
        prev = p;
      }
      if (anchor !== undefined && leaving.includes(anchor)) park(anchor);
    }
    cmds.push(...finish);
    // the keyboard goes back to the monitor, never to a pane coming in its place (swap-pane keeps it in place)
    if (rows.some((r) => r.active === "1" && leaving.includes(r.pane))) cmds.push(["select-pane", "-t", this.opts.controlPane]);
    const out = await this.tmux.run(chain(cmds));
    // break-pane -P prints each parked pane's new window, in order; the placeholder's size does not matter
    const windows = NEW_WINDOW.parseLines(out).map((w) => w.window);
    const pins = broken.flatMap((p, i) => (p === this.placeholder || !windows[i] ? [] : pinWindowArgs(windows[i]!, this.size.width, this.size.height)));
    if (pins.length) await this.tmux.run(chain(pins));
    this.visible = shown;
    this.stale = false;
    return [...shown];
  }

  /**
   * The window size that gives a parked pane the size it has when shown alone beside the
   * control pane. A pane parked at this size is not resized when it is shown alone, so its program does not redraw then (a
   * pre-started agent keeps the settled screen its first prompt was waiting for).
   */
  async soloSize(): Promise<{ width: number; height: number }> {
    const info = WINDOW_OF_PANE.parse(await this.tmux.run(["display-message", "-p", "-t", this.opts.controlPane, WINDOW_OF_PANE.text]));
    const width = Number(info.width);
    // the window's full height: a border line takes its row in a parked window as it does there
    return { width: Math.max(1, width - controlWidthFor(width, this.opts.controlWidth) - 1), height: Number(info.height) };
  }

  visiblePanes(): string[] {
    return [...this.visible];
  }

  async setLabel(pane: string, label: string): Promise<void> {
    await this.tmux.run(labelArgs(pane, label));
  }

  /**
   * Label a pane that is taken over and say whether its program still runs, in one tmux call
   * (a pre-started pane becoming an agent's). False when the pane is gone or its program exited.
   */
  async relabelIfAlive(pane: string, label: string): Promise<boolean> {
    return runsFrom(await this.tmux.exec([...labelArgs(pane, label), ";", ...paneDeadArgs(pane)]));
  }

  /** Kill a pane on purpose: its exit is expected and never reported as an interruption. */
  async kill(pane: string): Promise<void> {
    this.expected.add(pane);
    const wasVisible = this.visible.includes(pane);
    const rest = this.visible.filter((p) => p !== pane);
    // the column's last pane: the placeholder takes its place first, so the control pane never
    // spans the window; the keyboard, if the pane had it, goes to the monitor, not the placeholder
    const lastShown = chain([
      ["swap-pane", "-d", "-s", this.placeholder, "-t", pane],
      ["kill-pane", "-t", pane],
      ["select-pane", "-t", this.opts.controlPane],
    ]);
    const swapped = wasVisible && rest.length === 0 && (await this.tmux.exec(lastShown)).code === 0;
    if (!swapped) await this.tmux.exec(["kill-pane", "-t", pane]);
    if (!wasVisible) return;
    this.visible = rest;
    if (this.held > 0) {
      this.stale = true;
      return;
    }
    await this.show(rest);
  }

  /**
   * Run the layout changes of one step together: a pane killed in `run` leaves its place to
   * what the step shows next (one layout instead of the placeholder joined and parked again);
   * when the step shows nothing after the kill, the rest is laid out once at the end.
   */
  async batch(run: () => Promise<void>): Promise<void> {
    this.held++;
    try {
      await run();
    } finally {
      this.held--;
    }
    if (this.held === 0 && this.stale) await this.show(this.visible);
  }

  isExpectedExit(pane: string): boolean {
    return this.expected.has(pane);
  }

  /** True while the pane exists and its process has not exited. */
  async isAlive(pane: string): Promise<boolean> {
    return runsFrom(await this.tmux.exec(paneDeadArgs(pane)));
  }

  /** The screen as text (`-J`: wrapped lines joined); `escapes` keeps colours and attributes. */
  async capture(pane: string, opts: { escapes?: boolean; history?: number } = {}): Promise<string> {
    return capturePane(this.tmux, pane, { join: true, ...opts });
  }

  async title(pane: string): Promise<string> {
    return PANE_TITLE.parse(await this.tmux.run(["display-message", "-p", "-t", pane, PANE_TITLE.text])).title.trim();
  }

  private breakArgs(pane: string): string[] {
    // -t: without a target tmux puts the new window in its "current" session, which may be
    // another run's session on the same server (it then dies with that session)
    return ["break-pane", "-d", "-s", pane, "-t", `=${this.opts.session}:`, "-n", PARKED_WINDOW, "-P", "-F", NEW_WINDOW.text];
  }
}

const paneDeadArgs = (pane: string) => ["display-message", "-p", "-t", pane, PANE_DEAD.text];

/** The answer to paneDeadArgs (last in its call): the pane exists and its program runs. */
function runsFrom(r: TmuxResult): boolean {
  return r.code === 0 && PANE_DEAD.parse(r.stdout.replace(/\n$/, "")).dead === "0";
}

function labelArgs(pane: string, label: string): string[] {
  // tmux refuses over-long commands, and reads an argument ending in ";" as a separator
  const short = inertLine(label).slice(0, LABEL_MAX);
  const clean = short.endsWith(";") ? `${short.slice(0, -1)}\\;` : short;
  // select-pane -T expands formats (and runs #(…) jobs); an option value is never expanded
  return chain([
    ["set-option", "-p", "-t", pane, "@label", clean],
    ["select-pane", "-t", pane, "-T", formatLiteral(clean)],
  ]);
}

type PaneRow = { pane: string; window: string; role: string };

async function listSessionPanes(tmux: Tmux, session: string): Promise<PaneRow[]> {
  return SESSION_PANE.parseLines(await tmux.run(["list-panes", "-s", "-t", `=${session}`, "-F", SESSION_PANE.text]));
}

async function newParkedPane(
  tmux: Tmux,
  session: string,
  size: { width: number; height: number },
  shellCommand: string,
  cwd: string | undefined,
): Promise<string> {
  const args = ["new-window", "-d", "-n", PARKED_WINDOW, "-t", `=${session}:`];
  if (cwd) args.push("-c", startDirLiteral(cwd));
  args.push("-P", "-F", NEW_PANE.text, shellCommand);
  const { pane, window } = NEW_PANE.parse(await tmux.run(args));
  await tmux.run(chain(pinWindowArgs(window, size.width, size.height)));
  return pane;
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

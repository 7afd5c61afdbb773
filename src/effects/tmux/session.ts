import { existsSync } from "node:fs";
import { SessionExists, StartDirMissing, TmuxDuplicateSession, UnsafePaneCommand } from "./errors.ts";
import type { Tmux } from "./runner.ts";
import { NEW_PANE } from "./formats.ts";
import { dropEnvFile, writeEnvFile } from "./env-file.ts";

/**
 * Quoting for the string tmux hands to `/bin/sh -c`. tmux passes a single shell-command
 * argument to the shell verbatim (no format expansion for new-session / new-window /
 * split-window), so POSIX single quotes are enough: inside them nothing is special, and a
 * quote itself is written as '\''. Every word is quoted, so the result never ends in `;`
 * (which tmux would read as a command separator).
 */
export function shellQuote(argv: string[]): string {
  return argv.map(shellWord).join(" ");
}

export function shellWord(word: string): string {
  if (word.includes("\0")) throw new UnsafePaneCommand({ problem: "nul-byte", word });
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A string tmux reads as a format (a start directory given to `-c`, a pane title given to
 * `select-pane -T`) made literal: `#` starts every format sequence (`#{…}`, `#(cmd)` — which
 * runs a shell command —, `#H`, `#[style]`), and `##` is a literal `#`.
 */
export function formatLiteral(text: string): string {
  return text.replace(/#/g, "##");
}

/**
 * A start directory given to `-c`, made literal. Like formatLiteral, except before `[`: tmux
 * keeps `#[` and any run of `#` ending in `[` as it is (a style is drawn later, not expanded),
 * so doubling those made `/repo#[x]` the folder `/repo##[x]`, which does not exist, and tmux
 * started the pane elsewhere.
 */
export function startDirLiteral(dir: string): string {
  return dir.replace(/#+(\[)?/g, (run, bracket) => (bracket ? run : run + run));
}

/**
 * The shell-command for a pane: `exec 'argv0' …`, after sourcing and deleting its env file
 * (env-file.ts: values never appear in an argv). `exec` keeps the pane's pid equal to the
 * program's pid.
 */
export function paneCommand(argv: string[], opts: { envFile?: string; exitFile?: string } = {}): string {
  if (argv.length === 0) throw new UnsafePaneCommand({ problem: "empty" });
  const env = opts.envFile ? `. ${shellWord(opts.envFile)} && rm -f ${shellWord(opts.envFile)} && ` : "";
  if (!opts.exitFile) return `${env}exec ${shellQuote(argv)}`;
  // The pane reports its own exit: tmux 3.3a sometimes skips its pane-died hook, and a poll is slow.
  return `${env}${shellQuote(argv)}; s=$?; printf '%s %s\\n' "$TMUX_PANE" "$s" >> ${shellQuote([opts.exitFile])}; exit $s`;
}

export type SessionOptions = {
  name: string;
  cwd: string;
  width: number;
  height: number;
  controlWidth: number;
  controlCommand: string[];
  /** the control pane's environment, through a 0600 file in `dir` (env-file.ts) */
  env?: { vars: Record<string, string>; dir: string };
};

/** The label shown in each pane's top border: the pane option `@label`, bold; nothing when unset. */
export const BORDER_FORMAT = "#{?#{@label},#[bold] #{@label} #[default],}";

/**
 * Our tmux configuration, applied as commands (the server starts with `-f /dev/null`, so a
 * user's ~/.tmux.conf never changes agentmux's behaviour). Window options are global:
 * they must also hold for windows created later (parked panes), and the server socket
 * belongs to agentmux. `window-size` is the exception — set globally to `manual`, tmux
 * 3.3a crashes on the next detached new-window — so it is pinned per window (pinWindow).
 */
export function sessionConf(name: string, width: number, height: number): string[][] {
  const s = `=${name}:`;
  return [
    ["set-option", "-s", "escape-time", "0"],
    ["set-option", "-s", "focus-events", "on"],
    ["set-option", "-t", s, "default-size", `${width}x${height}`],
    ["set-option", "-t", s, "mouse", "on"],
    ["set-option", "-t", s, "history-limit", "20000"],
    // the control pane is the status display; tmux's bar would only list internal windows
    ["set-option", "-t", s, "status", "off"],
    ["set-option", "-g", "-w", "remain-on-exit", "on"],
    ["set-option", "-g", "-w", "allow-rename", "off"],
    ["set-option", "-g", "-w", "automatic-rename", "off"],
    ["set-option", "-g", "-w", "pane-border-status", "top"],
    ["set-option", "-g", "-w", "pane-border-format", BORDER_FORMAT],
    ["set-option", "-g", "-w", "pane-border-lines", "single"],
  ];
}

/** Pin a window to an explicit size so tiny or absent clients never shrink its panes. */
export function pinWindowArgs(target: string, width: number, height: number): string[][] {
  return [
    ["set-option", "-w", "-t", target, "window-size", "manual"],
    ["resize-window", "-t", target, "-x", String(width), "-y", String(height)],
  ];
}

/**
 * Before a person attaches: the pipeline window follows the attaching terminal's size
 * (parked agent windows stay pinned at full size), so nothing is cropped.
 */
export function fitToClientArgs(session: string): string[] {
  return ["set-option", "-w", "-t", `=${session}:pipeline`, "window-size", "latest"];
}

/** What the placeholder pane shows when no agent is in view. */
export const PLACEHOLDER_SCRIPT =
  "printf '\\033[?25l\\n  \\033[2m%s\\033[0m' 'no agent shown here · the monitor says what the run waits for'; exec tail -f /dev/null";

/** The control pane's width in a window this wide: the configured width, narrower in small windows. */
export function controlWidthFor(windowWidth: number, configured: number): number {
  return Math.min(configured, Math.max(30, Math.floor(windowWidth * 0.36)));
}

/** Monitor on the left at `width` columns, the visible agents stacked on the right. */
export function controlLayoutArgs(window: string, controlPane: string, width: number): string[][] {
  return [
    ["set-option", "-w", "-t", window, "main-pane-width", String(width)],
    ["select-layout", "-t", window, "main-vertical"],
    ["resize-pane", "-t", controlPane, "-x", String(width)],
  ];
}

/** Join several tmux commands into one invocation (one server round trip, applied atomically). */
export function chain(commands: string[][]): string[] {
  const out: string[] = [];
  commands.forEach((c, i) => {
    if (i > 0) out.push(";");
    out.push(...c);
  });
  return out;
}

/**
 * Create the detached session: window `pipeline` holding the control pane, an explicit size
 * and the agentmux tmux configuration. Fails if the session exists or cwd is missing.
 */
export async function createSession(tmux: Tmux, opts: SessionOptions): Promise<{ controlPane: string; window: string }> {
  if (!existsSync(opts.cwd)) {
    throw new StartDirMissing({ dir: opts.cwd });
  }
  if (await tmux.hasSession(opts.name)) {
    throw new SessionExists({ session: opts.name, socket: tmux.socket, attach: tmux.attachCommand(opts.name) });
  }
  const envFile = opts.env && Object.keys(opts.env.vars).length ? writeEnvFile(opts.env.dir, opts.env.vars) : undefined;
  const created = await tmux
    .run([
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-s",
      opts.name,
      "-x",
      String(opts.width),
      "-y",
      String(opts.height),
      "-n",
      "pipeline",
      "-c",
      startDirLiteral(opts.cwd),
      "-P",
      "-F",
      NEW_PANE.text,
      paneCommand(opts.controlCommand, { envFile }),
    ])
    .catch((e) => {
      dropEnvFile(envFile);
      // another launcher made it between the check above and this command
      throw e instanceof TmuxDuplicateSession ? new SessionExists({ session: opts.name, socket: tmux.socket, attach: tmux.attachCommand(opts.name) }) : e;
    });
  const { pane: controlPane, window } = NEW_PANE.parse(created.trim());
  // the placeholder beside it and the control pane's width at once, in the call after the one
  // that started the monitor (it takes about 50 ms to draw): a later split would reflow its screen
  const width = controlWidthFor(opts.width, opts.controlWidth);
  const placeholder = NEW_PANE.parse(
    (
      await tmux.run(
        chain([
          ...sessionConf(opts.name, opts.width, opts.height),
          ...pinWindowArgs(window, opts.width, opts.height),
          ["set-option", "-p", "-t", controlPane, "@amx_role", "control"],
          ["select-pane", "-t", controlPane, "-T", "agentmux"],
          [
            "split-window",
            "-d",
            "-h",
            "-t",
            controlPane,
            "-c",
            startDirLiteral(opts.cwd),
            "-P",
            "-F",
            NEW_PANE.text,
            paneCommand(["sh", "-c", PLACEHOLDER_SCRIPT]),
          ],
          ...controlLayoutArgs(window, controlPane, width),
        ]),
      )
    ).trim(),
  ).pane;
  await tmux.run(["set-option", "-p", "-t", placeholder, "@amx_role", "placeholder"]);
  return { controlPane, window };
}

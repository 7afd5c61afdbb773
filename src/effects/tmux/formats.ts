import { TmuxFormatMismatch } from "./errors.ts";

/**
 * Every `-F` / `display-message -p` format agentmux asks tmux for, defined once with the
 * parser of its output. Columns are tab-separated; a line with another number of columns is
 * an error (TmuxFormatMismatch), never a silently shifted field. Only the last field may be
 * free text (a title, a path), which can itself hold tabs: it takes the rest of the line.
 */
type Spec = Record<string, string>;

export type TmuxFormat<S extends Spec> = {
  readonly name: string;
  /** the format string passed to tmux */
  readonly text: string;
  /** one output line → named fields */
  parse(line: string): { [K in keyof S]: string };
  /** every non-empty output line → named fields */
  parseLines(out: string): { [K in keyof S]: string }[];
};

/**
 * `fields` maps our name to a tmux format variable (`pane_id`, `@amx_role`…). `restField`
 * names the last field when it is free text.
 */
export function defineFormat<const S extends Spec>(name: string, fields: S, opts: { restField?: keyof S } = {}): TmuxFormat<S> {
  const keys = Object.keys(fields) as (keyof S & string)[];
  if (opts.restField !== undefined && keys.at(-1) !== opts.restField) throw new Error(`format ${name}: only the last field may be free text`);
  const text = keys.map((k) => `#{${fields[k]}}`).join("\t");
  const parse = (line: string) => {
    const cols = line.split("\t");
    const ok = opts.restField !== undefined ? cols.length >= keys.length : cols.length === keys.length;
    if (!ok) throw new TmuxFormatMismatch({ format: name, expected: keys.length, got: cols.length, line });
    const out = {} as { [K in keyof S]: string };
    keys.forEach((k, i) => (out[k] = i === keys.length - 1 ? cols.slice(i).join("\t") : cols[i]!));
    return out;
  };
  return {
    name,
    text,
    parse,
    parseLines: (out) =>
      out
        .split("\n")
        .filter((l) => l !== "")
        .map(parse),
  };
}

/** A pane (and its window) just made by new-session / new-window with `-P`. */
export const NEW_PANE = defineFormat("new pane", { pane: "pane_id", window: "window_id" });
/** A window made by break-pane with `-P`. */
export const NEW_WINDOW = defineFormat("new window", { window: "window_id" });
export const SESSION_NAME = defineFormat("session name", { name: "session_name" });
export const PANE_ID = defineFormat("pane id", { pane: "pane_id" });
export const WINDOW_OF_PANE = defineFormat("window of a pane", { window: "window_id", width: "window_width", height: "window_height" });
/** A window's panes in order, whether each has the keyboard, and the window's size (one call for what a layout change needs). */
export const PANE_IN_WINDOW = defineFormat("pane in window", { pane: "pane_id", active: "pane_active", width: "window_width", height: "window_height" });
/** The panes of a session with agentmux's own role tag (control, placeholder). */
export const SESSION_PANE = defineFormat("session pane", { pane: "pane_id", window: "window_id", role: "@amx_role" }, { restField: "role" });
export const PANE_LIVENESS = defineFormat("pane liveness", { pane: "pane_id", dead: "pane_dead" });
/** A pane right after its start; the path is read from /proc and briefly empty after the fork. */
export const PANE_START = defineFormat("pane start", { pid: "pane_pid", dead: "pane_dead", path: "pane_current_path" }, { restField: "path" });
export const PANE_DEAD = defineFormat("pane dead", { dead: "pane_dead" });
export const PANE_TITLE = defineFormat("pane title", { title: "pane_title" }, { restField: "title" });
/** One look at a pane's state before its screen (see screen.ts snapshot). */
export const PANE_STATE = defineFormat(
  "pane state",
  { dead: "pane_dead", exitStatus: "pane_dead_status", inMode: "pane_in_mode", title: "pane_title" },
  { restField: "title" },
);
/** A dead pane's exit status (kept by remain-on-exit; tmux 3.3a may report it a moment late). */
export const PANE_DEAD_STATUS = defineFormat("pane dead status", { status: "pane_dead_status" });
/** A client attached to a session, and its terminal. */
export const CLIENT_TTY = defineFormat("client tty", { client: "client_name", control: "client_control_mode", tty: "client_tty" }, { restField: "tty" });
/** Whether a pane's window is zoomed, and how many panes it has. */
export const ZOOMED = defineFormat("window zoom", { zoomed: "window_zoomed_flag", panes: "window_panes" });
/** A pane's width beside its window's, and the window's zoom. */
export const PANE_FIT = defineFormat("pane fit", { zoomed: "window_zoomed_flag", panes: "window_panes", pane: "pane_width", window: "window_width" });

import { runInTerminal } from "../process/run.ts";
import { isGone } from "./errors.ts";
import { SESSION_NAME } from "./formats.ts";
import type { Tmux } from "./runner.ts";

/**
 * tmux operations the rest of agentmux uses, as typed functions. Failures throw the named
 * errors of errors.ts; an operation that tolerates a gone session says so in its name or doc.
 */

/** The session environment variable that names the control pane (read when attaching). */
export const CONTROL_PANE_VAR = "AMX_CONTROL_PANE";

const session = (name: string) => `=${name}`;

/** Kill the session; a session (or server) that is already gone is not an error. */
export async function killSession(tmux: Tmux, name: string): Promise<void> {
  try {
    await tmux.run(["kill-session", "-t", session(name)]);
  } catch (e) {
    if (!isGone(e)) throw e;
  }
}

/** Names of the sessions on this server; empty when no server runs (or tmux is missing). */
export async function listSessionNames(tmux: Tmux): Promise<Set<string>> {
  const r = await tmux.exec(["list-sessions", "-F", SESSION_NAME.text]);
  return new Set(r.code === 0 ? SESSION_NAME.parseLines(r.stdout).map((s) => s.name) : []);
}

/** Whether a tmux server answers on this socket. */
export async function serverRunning(tmux: Tmux): Promise<boolean> {
  return (await tmux.exec(["list-sessions", "-F", SESSION_NAME.text])).code === 0;
}

/** Make a pane the active one of its window, and (`window`) its window the session's current one. */
export async function selectPane(tmux: Tmux, pane: string, opts: { window?: boolean } = {}): Promise<void> {
  if (opts.window) await tmux.run(["select-window", "-t", pane]);
  await tmux.run(["select-pane", "-t", pane]);
}

export type CaptureOptions = {
  /** join wrapped lines (`-J`) */
  join?: boolean;
  /** keep colours and attributes (`-e`) */
  escapes?: boolean;
  /** also this many lines of scrollback */
  history?: number;
};

/** The pane's screen as text. */
export async function capturePane(tmux: Tmux, pane: string, opts: CaptureOptions = {}): Promise<string> {
  return tmux.run(captureArgs(pane, opts));
}

/** The capture-pane arguments (also chained after other commands in one round trip, see screen.ts). */
export function captureArgs(pane: string, opts: CaptureOptions = {}): string[] {
  const args = ["capture-pane", "-p"];
  if (opts.join) args.push("-J");
  if (opts.escapes) args.push("-e");
  if (opts.history) args.push("-S", String(-opts.history));
  return [...args, "-t", pane];
}

export async function setEnvironment(tmux: Tmux, name: string, key: string, value: string): Promise<void> {
  await tmux.run(["set-environment", "-t", session(name), key, value]);
}

/** A session environment variable; undefined when unset (or the session is gone). */
export async function showEnvironment(tmux: Tmux, name: string, key: string): Promise<string | undefined> {
  const r = await tmux.exec(["show-environment", "-t", session(name), key]);
  if (r.code !== 0) return undefined;
  const line = r.stdout.replace(/\n$/, "");
  return line.startsWith(`${key}=`) ? line.slice(key.length + 1) : undefined;
}

/** Hand this terminal to a tmux client of the session until it detaches or the session ends; its exit code. */
export function attachSession(tmux: Tmux, name: string): Promise<number> {
  // TMUX set but empty: tmux refuses to nest only when TMUX names a server
  return runInTerminal(tmux.argv(["attach-session", "-t", session(name)]), { env: { TMUX: "" } });
}

import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { Tmux, tmuxSocket } from "../effects/tmux/runner.ts";
import { listSessionNames } from "../effects/tmux/ops.ts";
import type { State } from "../schema/state.ts";
import { readRuntime, readState } from "./read.ts";
import { readPythonState } from "./python-state.ts";
import { F, sessionsRoot } from "../protocol/paths.ts";
import { isSocketName } from "../schema/tmux-names.ts";
import { ownsTmuxSession } from "./tmux-owner.ts";
import { archiveRootOf } from "./archive.ts";

export type SessionSummary = {
  id: string;
  dir: string;
  state?: State;
  /** why state.json could not be read (the session is still listed, so it can be cleaned) */
  error?: string;
  /** ms since the session last changed (state.updated_at, else state.json mtime) */
  ageMs: number;
  updatedAt: number;
  live: boolean;
  /** the tmux socket the session runs on (runtime_state.json, else config/env default) */
  socket: string;
  /** a finished run's archived record (.agentmux/.sessions/.archive/<id>/) */
  archived?: boolean;
};

/** The default socket: AGENTMUX_TMUX_SOCKET, else the configured one (default "agentmux"). */
export const defaultSocket = (configured = "agentmux") => tmuxSocket(configured);

/** Names of the tmux sessions alive on a socket (empty when no server runs there). */
export async function liveTmuxSessions(socket: string): Promise<Set<string>> {
  try {
    return await listSessionNames(new Tmux(socket));
  } catch {
    return new Set(); // no tmux installed: nothing is live
  }
}

export type Unchecked = Omit<SessionSummary, "live">;

/** A session's summary read from its folder (undefined without a state.json). */
export function readSummary(dir: string, now: number, socket?: string): Unchecked | undefined {
  let mtime: number;
  try {
    mtime = statSync(join(dir, F.state)).mtimeMs;
  } catch {
    return undefined;
  }
  let state: State | undefined;
  let error: string | undefined;
  // a state.json agentmux reads is agentmux's, however little it holds; only one it cannot read may be the Python tool's
  try {
    state = readState(dir);
  } catch (e) {
    error = readPythonState(dir) ? `written by the Python agentmux: agentmux resume ${basename(dir)} --from-python converts it` : (e as Error).message;
  }
  const updated = state ? Date.parse(state.updated_at) : NaN;
  const updatedAt = Number.isNaN(updated) ? mtime : updated;
  // runtime_state.json is writable by agents: a socket that is not a plain name is not ours
  const recorded = readRuntime(dir)?.tmux_socket;
  const sock = (recorded && isSocketName(recorded) ? recorded : undefined) ?? socket ?? defaultSocket();
  return { id: basename(dir), dir, state, error, updatedAt, ageMs: Math.max(0, now - updatedAt), socket: sock };
}

/** Whether each session's tmux session is alive on its socket and is its own (one list per socket, then one query per live name). */
export async function withLiveness(found: Unchecked[]): Promise<SessionSummary[]> {
  const sockets = new Map<string, Promise<Set<string>>>();
  for (const s of new Set(found.map((f) => f.socket))) sockets.set(s, liveTmuxSessions(s));
  return Promise.all(
    found.map(async (f) => {
      const alive = await sockets.get(f.socket)!;
      const name = f.state?.session_name;
      const live = !f.archived && name !== undefined && alive.has(name) && (await ownsTmuxSession(new Tmux(f.socket), name, f.dir));
      return { ...f, live };
    }),
  );
}

/** The archived records of finished runs (see archive.ts). */
function archived(root: string, now: number): Unchecked[] {
  const dir = archiveRootOf(root);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((id) => !id.startsWith("."))
    .map((id) => readSummary(join(dir, id), now))
    .filter((x) => x !== undefined)
    .map((x) => ({ ...x, archived: true }));
}

/** Every session folder under `.agentmux/.sessions/` that has a state.json, newest first. */
export async function listSessions(projectDir: string, opts: { socket?: string; now?: number } = {}): Promise<SessionSummary[]> {
  const root = sessionsRoot(projectDir);
  const now = opts.now ?? Date.now();
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  // dot entries are agentmux's own (.archive): session ids start with a letter or digit
  const found = names
    .filter((id) => !id.startsWith("."))
    .map((id) => readSummary(join(root, id), now, opts.socket))
    .filter((x) => x !== undefined);
  found.push(...archived(root, now));
  const out = await withLiveness(found);
  return out.sort((a, b) => b.updatedAt - a.updatedAt || b.id.localeCompare(a.id));
}

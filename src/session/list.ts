import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { AgentmuxError } from "../errors.ts";
import { Tmux, tmuxSocket } from "../effects/tmux/runner.ts";
import { killSession, listSessionNames } from "../effects/tmux/ops.ts";
import type { State } from "../schema/state.ts";
import { readRuntime, readState } from "./read.ts";
import { F, sessionsRoot } from "./paths.ts";

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

type Unchecked = Omit<SessionSummary, "live">;

function readSummary(dir: string, now: number, socket?: string): Unchecked | undefined {
  let mtime: number;
  try {
    mtime = statSync(join(dir, F.state)).mtimeMs;
  } catch {
    return undefined;
  }
  let state: State | undefined;
  let error: string | undefined;
  try {
    state = readState(dir);
  } catch (e) {
    error = (e as Error).message;
  }
  const updated = state ? Date.parse(state.updated_at) : NaN;
  const updatedAt = Number.isNaN(updated) ? mtime : updated;
  const sock = readRuntime(dir)?.tmux_socket ?? socket ?? defaultSocket();
  return { id: basename(dir), dir, state, error, updatedAt, ageMs: Math.max(0, now - updatedAt), socket: sock };
}

async function withLiveness(found: Unchecked[]): Promise<SessionSummary[]> {
  const sockets = new Map<string, Promise<Set<string>>>();
  for (const s of new Set(found.map((f) => f.socket))) sockets.set(s, liveTmuxSessions(s));
  const out: SessionSummary[] = [];
  for (const f of found) {
    const alive = await sockets.get(f.socket)!;
    out.push({ ...f, live: !!f.state && alive.has(f.state.session_name) });
  }
  return out;
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
  const found = names.map((id) => readSummary(join(root, id), now, opts.socket)).filter((x) => x !== undefined);
  const out = await withLiveness(found);
  return out.sort((a, b) => b.updatedAt - a.updatedAt || b.id.localeCompare(a.id));
}

/**
 * The session a command means: an id under `.agentmux/.sessions/`, a path to a session folder,
 * or (no argument) the most recently updated one.
 */
export async function resolveSession(projectDir: string, arg?: string): Promise<SessionSummary> {
  const all = await listSessions(projectDir);
  if (arg === undefined) {
    if (!all.length)
      throw new AgentmuxError("session", "no sessions in this project", {
        where: sessionsRoot(projectDir),
        hint: 'start one with: agentmux run "<what to build>"',
      });
    return all[0]!;
  }
  const byId = all.find((s) => s.id === arg);
  if (byId) return byId;
  const path = isAbsolute(arg) ? arg : resolve(arg);
  if (existsSync(join(path, F.state))) {
    const inList = all.find((s) => s.dir === path);
    if (inList) return inList;
    const one = readSummary(path, Date.now());
    if (one) return (await withLiveness([one]))[0]!;
  }
  const ids = all.map((s) => s.id);
  throw new AgentmuxError("session", `no session "${arg}"`, {
    where: sessionsRoot(projectDir),
    hint: ids.length ? `available: ${ids.join(", ")}` : 'there are no sessions yet; start one with: agentmux run "<what to build>"',
  });
}

/** Kill a session's live tmux session (if any), then remove its folder. */
export async function removeSession(s: SessionSummary): Promise<void> {
  if (s.live && s.state) {
    await killSession(new Tmux(s.socket), s.state.session_name);
  }
  rmSync(s.dir, { recursive: true, force: true });
}

/**
 * The names agentmux gives tmux. A socket is a plain name used with `-L`, so tmux keeps it in
 * its private per-user directory (a `/` or `..` would point elsewhere); a run's tmux session is
 * `agentmux-<session id>`. Names read from session files (which agents can write) are checked
 * against these rules before any command acts on them.
 */
export const SOCKET_NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;

export function socketNameProblem(name: string): string | undefined {
  if (SOCKET_NAME_RE.test(name)) return undefined;
  if (name === "") return "is empty";
  if (name.includes("/")) return "contains '/' (a socket name, not a path: tmux keeps it in its own private folder)";
  if (name.startsWith(".") || name.startsWith("-")) return `starts with ${JSON.stringify(name[0])}`;
  return "may hold only letters, digits, '.', '_' and '-' (at most 100)";
}

export const isSocketName = (name: string) => SOCKET_NAME_RE.test(name);

/**
 * The tmux session of the agentmux session `id`: `agentmux-<id>`, or `agentmux-<id>-<n>` (n ≥ 2)
 * when that name was taken. An id is unique within its project only, and every project's runs
 * share agentmux's tmux server.
 */
export const tmuxSessionName = (id: string, n = 1) => (n === 1 ? `agentmux-${id}` : `agentmux-${id}-${n}`);

/** Most names tried for one run before its start fails (tmux sessions named after one id). */
export const TMUX_NAME_TRIES = 100;

/** Whether `name` is one agentmux gives the tmux session of `id` (state.json, which agents can write, names it). */
export function isTmuxSessionNameOf(id: string, name: string): boolean {
  const base = tmuxSessionName(id);
  if (name === base) return true;
  const n = name.startsWith(`${base}-`) ? name.slice(base.length + 1) : "";
  return /^[1-9]\d{0,2}$/.test(n) && Number(n) >= 2 && Number(n) <= TMUX_NAME_TRIES;
}

/** The tmux session environment variable that holds the agentmux session folder. */
export const SESSION_DIR_VAR = "AMX_SESSION_DIR";

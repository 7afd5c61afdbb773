import { join } from "node:path";
import { writeJsonAtomic } from "../../src/effects/fs/atomic.ts";
import type { State } from "../../src/schema/state.ts";
import { startServer, type WebServer } from "../../src/web/server.ts";
import { newToken } from "../../src/session/serve-record.ts";
import { privateSocket } from "../helpers/tmp.ts";
import { awaitingApproval } from "../tui/fixtures.ts";

/**
 * A project with a session waiting for its decision (two uncommitted files) that is live: its
 * tmux session runs on a private server and says it is this folder's, as a real run's does.
 */
export function liveAwaiting(dirs: string[], sockets: string[], over: Partial<State> = {}): { repo: string; dir: string; socket: string } {
  const socket = privateSocket();
  sockets.push(socket);
  const { repo, dir } = awaitingApproval(
    "amx-web-",
    dirs,
    { "src/rate.ts": "export const limit = 10;\n", "notes.txt": "scratch\n" },
    { session_name: "agentmux-s1", ...over },
  );
  writeJsonAtomic(join(dir, "runtime_state.json"), { tmux_session: "agentmux-s1", tmux_socket: socket, panes: {} });
  const r = Bun.spawnSync(["tmux", "-L", socket, "new-session", "-d", "-s", "agentmux-s1", "-e", `AMX_SESSION_DIR=${dir}`, "sleep 600"], {
    env: { ...process.env, TMUX: "" },
  });
  if (r.exitCode !== 0) throw new Error(`tmux: ${r.stderr}`);
  Bun.spawnSync(["tmux", "-L", socket, "set-environment", "-t", "agentmux-s1", "AMX_SESSION_DIR", dir], { env: { ...process.env, TMUX: "" } });
  return { repo, dir, socket };
}

/** An in-process server on a free loopback port; `call` sends a request the way a client would (Host from the URL). */
export function serveProjects(projects: string[], o: { answer?: boolean; names?: string[] } = {}) {
  const token = newToken();
  const server: WebServer = startServer({
    projects,
    host: "127.0.0.1",
    port: 0,
    access: { token, names: new Set(o.names ?? []), answer: o.answer === true },
    pollMs: 100,
  });
  const origin = server.url.replace(/\/$/, "");
  type Init = Omit<RequestInit, "headers"> & { headers?: Record<string, string> };
  const call = (path: string, init: Init = {}) => fetch(origin + path, { redirect: "manual", ...init });
  const authed = (path: string, init: Init = {}) => call(path, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
  /** a write as the page sends it: same origin, the token in its header */
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method: "POST", body: JSON.stringify(body), headers: { origin, "content-type": "application/json", "x-agentmux-token": token, ...headers } });
  return { server, token, origin, call, authed, post };
}

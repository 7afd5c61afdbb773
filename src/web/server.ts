import { api, problem } from "./api.ts";
import { checkRequest, SECURITY_HEADERS, tokenCookie, type Access } from "./guard.ts";
import { LiveRuns, type Client } from "./live.ts";
import { PAGE_CSS, PAGE_HTML, PAGE_JS } from "./page/assets.ts";
import { runDir, SESSION_ID, type RunKey } from "./source.ts";

/**
 * `agentmux serve`'s HTTP server: the page (one HTML shell, a style sheet and a script, all
 * in the binary), the JSON API and the event stream. Every request passes the guard first;
 * every answer carries the security headers.
 */
export type WebServer = { url: string; port: number; stop(): Promise<void> };

export type ServeOptions = { projects: readonly string[]; host: string; port: number; access: Access; pollMs?: number };

const KEEPALIVE_MS = 15_000;

function withHeaders(res: Response): Response {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.headers.set(k, v);
  return res;
}

const text = (body: string, type: string) => new Response(body, { headers: { "content-type": `${type}; charset=utf-8` } });

/** The page with the write token in a meta tag (only for a request that showed the token already). */
const page = (access: Access) =>
  text(PAGE_HTML.replace("{{TOKEN}}", access.answer ? access.token : "").replace("{{ANSWER}}", access.answer ? "on" : "off"), "text/html");

function followed(url: URL, projects: readonly string[]): RunKey | null {
  const m = /^(\d+)\/(.+)$/.exec(url.searchParams.get("run") ?? "");
  if (!m || !SESSION_ID.test(m[2]!)) return null;
  const key = { project: Number(m[1]), id: m[2]! };
  return runDir(projects, key) ? key : null;
}

function events(req: Request, url: URL, live: LiveRuns, projects: readonly string[]): Response {
  const enc = new TextEncoder();
  let drop = () => {};
  let keepalive: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (s: string) => {
        try {
          controller.enqueue(enc.encode(s));
        } catch {
          close();
        }
      };
      const client: Client = {
        follows: followed(url, projects),
        logNext: null,
        send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
      };
      const close = () => {
        drop();
        clearInterval(keepalive);
        try {
          controller.close();
        } catch {}
      };
      drop = live.add(client);
      write(": agentmux\n\n");
      client.send("hello", { follows: client.follows });
      if (client.follows) live.sendLog(client, runDir(projects, client.follows)!);
      keepalive = setInterval(() => write(": keepalive\n\n"), KEEPALIVE_MS);
      req.signal.addEventListener("abort", close);
    },
    cancel() {
      drop();
      clearInterval(keepalive);
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream; charset=utf-8", "x-accel-buffering": "no" } });
}

export function startServer(o: ServeOptions): WebServer {
  const live = new LiveRuns(o.projects, o.pollMs);
  const ctx = { projects: o.projects, answer: o.access.answer };
  const server = Bun.serve({
    hostname: o.host,
    port: o.port,
    idleTimeout: 0,
    // the largest answer is a change request (256 KiB) or a long list of files left out
    maxRequestBodySize: 1024 * 1024,
    async fetch(req) {
      const verdict = checkRequest(req, o.access);
      if (!verdict.ok) return withHeaders(problem(verdict.status, verdict.reason));
      const url = new URL(req.url);
      if (verdict.viaQuery && url.pathname === "/") {
        // the token leaves the address bar (and the history) at once: a cookie carries it from now on
        url.searchParams.delete("token");
        return withHeaders(
          new Response(null, { status: 303, headers: { location: url.pathname + url.search + url.hash, "set-cookie": tokenCookie(o.access.token) } }),
        );
      }
      try {
        if (url.pathname.startsWith("/api/")) return withHeaders(await api(req, url, ctx));
        if (req.method !== "GET") return withHeaders(problem(405, `${req.method} is not allowed here`));
        if (url.pathname === "/events") return withHeaders(events(req, url, live, o.projects));
        if (url.pathname === "/app.js") return withHeaders(text(PAGE_JS, "text/javascript"));
        if (url.pathname === "/style.css") return withHeaders(text(PAGE_CSS, "text/css"));
        if (url.pathname === "/") return withHeaders(page(o.access));
        if (url.pathname === "/favicon.ico") return withHeaders(new Response(null, { status: 204 }));
        return withHeaders(problem(404, `no such page: ${url.pathname}`));
      } catch (e) {
        return withHeaders(problem(500, `internal error: ${(e as Error).message}`));
      }
    },
  });
  // watching starts once the port is ours: a server that could not listen leaves nothing running
  live.start();
  const shownHost = o.host.includes(":") ? `[${o.host}]` : o.host === "0.0.0.0" ? "127.0.0.1" : o.host;
  return {
    url: `http://${shownHost}:${server.port}/`,
    port: server.port!,
    async stop() {
      live.stop();
      await server.stop(true);
    },
  };
}

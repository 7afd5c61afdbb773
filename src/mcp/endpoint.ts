import type { Server } from "bun";
import type { AgentTokens, AgentLink } from "./identity.ts";
import type { PeerCheck } from "./peer.ts";
import { namespacePids } from "../effects/process/tcp-peer.ts";
import { handleMessage, rpcError, RPC, type JsonRpcMessage, type JsonRpcResponse, type McpHandlers } from "./protocol.ts";

export const ENDPOINT_PATH = "/mcp";
/**
 * Header the stdio bridge sends with its own pid so the orchestrator can watch it. Only a hint:
 * it is believed only when it names the very process the connection was resolved to (PeerCheck).
 */
export const BRIDGE_PID_HEADER = "x-agentmux-bridge-pid";

export type EndpointOptions = {
  tokens: AgentTokens;
  handlers: (link: AgentLink) => McpHandlers;
  log: (msg: string) => void;
  /** a port to bind (a restart keeps the agents' configured URL); 0 picks a free one */
  port?: number;
  /**
   * a request is an agent's only when its connection comes from that agent's process tree
   * (peer.ts); absent where the peer cannot be resolved (no /proc): the token alone decides
   */
  peer?: PeerCheck;
};

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/**
 * The run's one MCP endpoint: streamable HTTP (JSON responses, no server-sent stream, no
 * session ids) on 127.0.0.1, served from the orchestrator process for every agent of the run.
 * Each request must carry `Authorization: Bearer <token>`; the token names the agent and its
 * role (AgentTokens), and (with `peer`) its connection must come from that agent's own process
 * tree, so a token read by another process is useless to it. Requests from a browser (an Origin header that is not this endpoint) or
 * for another Host are refused, so a web page cannot reach it (DNS rebinding).
 */
export class McpEndpoint {
  private server: Server<undefined> | null = null;
  private constructor(private readonly o: EndpointOptions) {}

  static start(o: EndpointOptions): McpEndpoint {
    const e = new McpEndpoint(o);
    e.listen(o.port ?? 0);
    return e;
  }

  get port(): number {
    return this.server?.port ?? this.o.port ?? 0;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}${ENDPOINT_PATH}`;
  }

  get running(): boolean {
    return this.server !== null;
  }

  private listen(port: number): void {
    this.server = Bun.serve({ hostname: "127.0.0.1", port, idleTimeout: 0, fetch: (req, server) => this.serve(req, server.requestIP(req)?.port ?? 0) });
    this.o.port = this.server.port;
  }

  /** Is the endpoint answering on its port? (a request through the network stack, not a flag) */
  async healthy(timeoutMs = 2000): Promise<boolean> {
    if (!this.server) return false;
    try {
      const r = await fetch(`http://127.0.0.1:${this.port}/health`, { signal: AbortSignal.timeout(timeoutMs) });
      return r.ok;
    } catch {
      return false;
    }
  }

  /** Listen again on the same port (the agents' configs name it). Throws when the port is taken. */
  restart(): void {
    this.server?.stop(true);
    this.server = null;
    this.listen(this.port);
  }

  stop(): void {
    this.server?.stop(true);
    this.server = null;
  }

  private async serve(req: Request, clientPort: number): Promise<Response> {
    // before the URL: without a Host header (HTTP/1.0) the request's URL does not parse
    const host = req.headers.get("host") ?? "";
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) return json(rpcError(null, RPC.invalidRequest, "wrong Host"), 403);
    const url = new URL(req.url);
    const origin = req.headers.get("origin");
    if (origin && origin !== `http://127.0.0.1:${this.port}` && origin !== `http://localhost:${this.port}`)
      return json(rpcError(null, RPC.invalidRequest, "cross-origin requests are refused"), 403);
    if (url.pathname === "/health") return json({ ok: true });
    if (url.pathname !== ENDPOINT_PATH) return json(rpcError(null, RPC.invalidRequest, `not found; the MCP endpoint is ${ENDPOINT_PATH}`), 404);
    if (req.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });

    const auth = req.headers.get("authorization") ?? "";
    const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1] ?? "";
    const link = this.o.tokens.lookup(token);
    if (!link) {
      this.o.log(`MCP endpoint: refused a request with ${token ? "an unknown or revoked" : "no"} agent token`);
      return json(
        rpcError(null, RPC.invalidRequest, "agentmux: this request has no valid agent token (the agent was replaced, or this is not one of the run's agents)"),
        401,
        { "www-authenticate": "Bearer" },
      );
    }
    if (this.o.peer) {
      const peer = await this.o.peer(link, clientPort, this.port);
      if (!peer.ok) {
        this.o.log(`MCP endpoint: refused a request with ${link.identity.agent}'s token: ${peer.reason}`);
        return json(
          rpcError(
            null,
            RPC.invalidRequest,
            `agentmux: this request carries ${link.identity.agent}'s token but ${peer.reason}; only the agent's own processes may use it`,
          ),
          403,
        );
      }
      // the bridge names itself (as its own pid namespace knows it: a sandbox has one); believed
      // only when that is the process holding this connection, which is then watched by its real pid
      const named = Number(req.headers.get(BRIDGE_PID_HEADER));
      if (named > 0 && peer.pid !== link.rootPid && namespacePids(peer.pid).includes(named)) link.bridgePid = peer.pid;
    }
    link.lastSeenAt = Date.now();

    const text = await readCapped(req, MAX_BODY_BYTES);
    if (text === null) {
      this.o.log(`MCP endpoint: refused a request from ${link.identity.agent} that is too large (over ${MAX_BODY_BYTES} bytes)`);
      return json(
        rpcError(
          null,
          RPC.invalidRequest,
          `agentmux: the request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB; a tool's arguments are short (files are named by path)`,
        ),
        413,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json(rpcError(null, RPC.parseError, "the request body is not JSON"), 400);
    }
    const handlers = this.o.handlers(link);
    const messages = Array.isArray(body) ? body : [body];
    const out: JsonRpcResponse[] = [];
    for (const m of messages) {
      const r = await handleMessage(m as JsonRpcMessage, handlers);
      if (r) out.push(r);
    }
    if (out.length === 0) return new Response(null, { status: 202 });
    return json(Array.isArray(body) ? out : out[0]);
  }
}

/** The largest request body the endpoint reads: tool arguments are short, files are named by path. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The body as text, or null once it is larger than `max` (announced or read): never held whole past the cap. */
async function readCapped(req: Request, max: number): Promise<string | null> {
  const announced = Number(req.headers.get("content-length") ?? NaN);
  if (announced > max) return null;
  if (!req.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

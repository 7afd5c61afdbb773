import { noProxyWithLoopback } from "../effects/proxy.ts";
import { readFileSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { McpBridgeEnvInvalid } from "./errors.ts";
import { agentmuxDown } from "../schema/mcp-client-config.ts";
import { BRIDGE_PID_HEADER } from "./endpoint.ts";
import { RPC, rpcError, textResult, type JsonRpcMessage, type JsonRpcResponse } from "./protocol.ts";

export type BridgeEnv = { url: string; token: string };

const TOKEN = /^[0-9a-f]{64}$/;

/**
 * AGENTMUX_MCP_URL (the run's endpoint on 127.0.0.1) and the agent's token: read from the 0600 file
 * AGENTMUX_MCP_TOKEN_FILE names (what agentmux sets: the token is then in no process's environment,
 * where another agent could read it in /proc), or AGENTMUX_MCP_TOKEN itself.
 */
export function readBridgeEnv(env: Record<string, string | undefined> = process.env): BridgeEnv {
  const url = env.AGENTMUX_MCP_URL?.trim();
  if (!url) throw new McpBridgeEnvInvalid({ variable: "AGENTMUX_MCP_URL", problem: "unset" });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpBridgeEnvInvalid({ variable: "AGENTMUX_MCP_URL", problem: "not-a-url", value: url });
  }
  if (parsed.protocol !== "http:" || !["127.0.0.1", "localhost"].includes(parsed.hostname))
    throw new McpBridgeEnvInvalid({ variable: "AGENTMUX_MCP_URL", problem: "not-local", value: url });
  const file = env.AGENTMUX_MCP_TOKEN_FILE?.trim();
  if (file) return { url, token: readTokenFile(file) };
  const token = env.AGENTMUX_MCP_TOKEN?.trim();
  if (!token) throw new McpBridgeEnvInvalid({ variable: "AGENTMUX_MCP_TOKEN_FILE", problem: "unset" });
  if (!TOKEN.test(token)) throw new McpBridgeEnvInvalid({ variable: "AGENTMUX_MCP_TOKEN", problem: "not-a-token" });
  return { url, token };
}

function readTokenFile(file: string): string {
  let text: string;
  try {
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077)
      throw new McpBridgeEnvInvalid({ variable: "AGENTMUX_MCP_TOKEN_FILE", problem: "not-private", value: file, mode: mode.toString(8).padStart(4, "0") });
    text = readFileSync(file, "utf8").trim();
  } catch (e) {
    if (e instanceof McpBridgeEnvInvalid) throw e;
    const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new McpBridgeEnvInvalid({ variable: "AGENTMUX_MCP_TOKEN_FILE", problem: "unreadable", value: file, reason });
  }
  if (!TOKEN.test(text)) throw new McpBridgeEnvInvalid({ variable: "AGENTMUX_MCP_TOKEN_FILE", problem: "not-a-token" });
  return text;
}

/** The answer to one message when the endpoint cannot be reached (null: nothing to answer). */
function downAnswer(msg: JsonRpcMessage): JsonRpcResponse | null {
  if (typeof msg.method !== "string" || (typeof msg.id !== "string" && typeof msg.id !== "number")) return null;
  if (msg.method === "tools/call") {
    const name = (msg.params as { name?: unknown } | undefined)?.name;
    return { jsonrpc: "2.0", id: msg.id, result: textResult(agentmuxDown(typeof name === "string" ? name : "the tool"), true) };
  }
  return rpcError(msg.id, RPC.internal, agentmuxDown(msg.method));
}

/**
 * `agentmux mcp-server`: newline-delimited JSON-RPC on stdin/stdout, forwarded message by
 * message to the run's endpoint with the agent's token, so the endpoint stays the one place
 * that knows agents, validates calls and records them. Requests are forwarded concurrently
 * (a ping may overtake a long tools/call); each answer is one line on stdout.
 */
export async function runBridge(
  env: BridgeEnv,
  io: { input?: NodeJS.ReadableStream; write?: (line: string) => void; log?: (m: string) => void } = {},
): Promise<void> {
  // the endpoint is on loopback: never through an HTTP(S) proxy the CLI's environment names
  process.env.NO_PROXY = process.env.no_proxy = noProxyWithLoopback(process.env.NO_PROXY ?? process.env.no_proxy);
  const write = io.write ?? ((line: string) => void process.stdout.write(line));
  const log = io.log ?? ((m: string) => void process.stderr.write(`agentmux mcp-server: ${m}\n`));
  const send = (r: JsonRpcResponse | JsonRpcResponse[]) => write(JSON.stringify(r) + "\n");
  const pending = new Set<Promise<void>>();
  const rl = createInterface({ input: io.input ?? process.stdin, crlfDelay: Infinity });
  for await (const raw of rl) {
    const text = raw.trim();
    if (!text) continue;
    let msg: JsonRpcMessage | JsonRpcMessage[];
    try {
      msg = JSON.parse(text);
    } catch {
      send(rpcError(null, RPC.parseError, "not JSON"));
      continue;
    }
    const job = forward(env, msg, text)
      .then((r) => void (r && send(r)))
      .catch((e) => {
        log(`endpoint unreachable: ${(e as Error).message}`);
        const answers = (Array.isArray(msg) ? msg : [msg]).map(downAnswer).filter((a): a is JsonRpcResponse => a !== null);
        if (answers.length) send(Array.isArray(msg) ? answers : answers[0]!);
      })
      .finally(() => pending.delete(job));
    pending.add(job);
  }
  await Promise.allSettled([...pending]);
}

async function forward(env: BridgeEnv, msg: unknown, body: string): Promise<JsonRpcResponse | JsonRpcResponse[] | null> {
  const r = await fetch(env.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${env.token}`,
      [BRIDGE_PID_HEADER]: String(process.pid),
    },
    body,
  });
  if (r.status === 202) return null;
  const text = await r.text();
  try {
    return JSON.parse(text) as JsonRpcResponse;
  } catch {
    const id = !Array.isArray(msg) && msg && typeof msg === "object" && "id" in msg ? ((msg as { id: string | number }).id ?? null) : null;
    return rpcError(id, RPC.internal, `the agentmux endpoint answered ${r.status}: ${text.slice(0, 200)}`);
  }
}

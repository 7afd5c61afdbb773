import { PROTOCOL_VERSIONS } from "../schema/mcp-client-config.ts";
import { VERSION } from "../version.ts";

/**
 * The slice of the Model Context Protocol agentmux serves — `initialize`, `ping`, `tools/list`,
 * `tools/call` and notifications — as plain JSON-RPC 2.0 handling, shared by the HTTP endpoint
 * and the stdio bridge. It is small on purpose: the orchestrator hosts it, and loading the MCP
 * SDK's server there would cost about 20 MB of memory for four methods.
 */
export type JsonRpcId = string | number;
export type JsonRpcMessage = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
export type JsonRpcResponse = { jsonrpc: "2.0"; id: JsonRpcId | null } & ({ result: unknown } | { error: { code: number; message: string; data?: unknown } });

export type ToolContent = { type: "text"; text: string };
export type CallToolResult = { content: ToolContent[]; isError?: boolean };
export type ToolDefinition = { name: string; description: string; inputSchema: Record<string, unknown> };

export const RPC = { parseError: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603 } as const;

/** What one agent's connection can do; the endpoint binds these to the caller's identity. */
export type McpHandlers = {
  listTools(): ToolDefinition[];
  callTool(name: string, args: unknown): Promise<CallToolResult>;
  /** called after `initialize` and after the response to `tools/list` has been produced */
  initialized?(): void;
  listed?(): void;
};

export const textResult = (text: string, isError = false): CallToolResult => ({ content: [{ type: "text", text }], ...(isError ? { isError: true } : {}) });

const isId = (v: unknown): v is JsonRpcId => typeof v === "string" || typeof v === "number";
const ok = (id: JsonRpcId, result: unknown): JsonRpcResponse => ({ jsonrpc: "2.0", id, result });
export const rpcError = (id: JsonRpcId | null, code: number, message: string): JsonRpcResponse => ({ jsonrpc: "2.0", id, error: { code, message } });

/** One JSON-RPC message in, its response out (null for notifications and client responses). */
export async function handleMessage(msg: JsonRpcMessage, h: McpHandlers): Promise<JsonRpcResponse | null> {
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) return rpcError(null, RPC.invalidRequest, "a JSON-RPC message must be an object");
  if (typeof msg.method !== "string") return null; // a response to a server request: agentmux sends none
  if (!("id" in msg) || msg.id === undefined || msg.id === null) return null; // a notification
  if (!isId(msg.id)) return rpcError(null, RPC.invalidRequest, "id must be a string or a number");
  const id = msg.id;
  const params = (msg.params && typeof msg.params === "object" ? msg.params : {}) as Record<string, unknown>;
  switch (msg.method) {
    case "initialize": {
      const asked = typeof params.protocolVersion === "string" ? params.protocolVersion : "";
      const protocolVersion = (PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : PROTOCOL_VERSIONS[0];
      h.initialized?.();
      return ok(id, { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: { name: "agentmux", version: VERSION } });
    }
    case "ping":
      return ok(id, {});
    case "tools/list": {
      const tools = h.listTools();
      h.listed?.();
      return ok(id, { tools });
    }
    case "tools/call": {
      if (typeof params.name !== "string") return rpcError(id, RPC.invalidParams, "tools/call needs params.name (the tool's name)");
      return ok(id, await h.callTool(params.name, params.arguments ?? {}));
    }
    default:
      return rpcError(id, RPC.methodNotFound, `agentmux does not serve ${msg.method}; it serves tools only`);
  }
}

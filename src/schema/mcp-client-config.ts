import { z } from "zod";

/**
 * A per-invocation MCP config in claude's `--mcp-config` shape, as read by a client
 * (the simulated agent): a streamable-HTTP server (`url` + `headers`, agentmux's default) or a
 * stdio server (`command`, `env` merged over the client's own environment).
 */
export const McpStdioServer = z.object({
  type: z.literal("stdio").optional(),
  command: z.string().min(1, "must name the server executable"),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});
export type McpStdioServer = z.infer<typeof McpStdioServer>;

export const McpHttpServer = z.object({
  type: z.literal("http"),
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  headers: z.record(z.string(), z.string()).default({}),
});
export type McpHttpServer = z.infer<typeof McpHttpServer>;

export const McpServerEntry = z.union([McpHttpServer, McpStdioServer]);
export type McpServerEntry = z.infer<typeof McpServerEntry>;

export const McpClientConfig = z.object({
  mcpServers: z.record(z.string(), McpServerEntry).refine((s) => Object.keys(s).length > 0, "must declare at least one server"),
});
export type McpClientConfig = z.infer<typeof McpClientConfig>;

/**
 * What an agent is told when its tool call cannot reach agentmux at all (the orchestrator that
 * hosts the endpoint is not running): said by the stdio bridge and the simulated agent. A real
 * CLI on HTTP shows its own connection error; either way it is prompted again after resume.
 */
export const agentmuxDown = (tool: string) =>
  `agentmux is not running (its orchestrator stopped), so ${tool} was not recorded. Your files are kept. ` +
  `Stop here and wait: when the run is resumed, agentmux prompts you again — then call ${tool} again.`;
export const AGENTMUX_DOWN = /^agentmux is not running/;

/** MCP protocol revisions agentmux's endpoint speaks (newest first); an unknown requested one gets the newest. */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

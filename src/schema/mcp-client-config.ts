import { z } from "zod";

/**
 * A per-invocation MCP config in claude's `--mcp-config` shape, as read by a client
 * (the simulated agent). `env` is merged over the client's own environment.
 */
export const McpStdioServer = z.object({
  type: z.literal("stdio").optional(),
  command: z.string().min(1, "must name the server executable"),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});
export type McpStdioServer = z.infer<typeof McpStdioServer>;

export const McpClientConfig = z.object({
  mcpServers: z.record(z.string(), McpStdioServer).refine((s) => Object.keys(s).length > 0, "must declare at least one server"),
});
export type McpClientConfig = z.infer<typeof McpClientConfig>;

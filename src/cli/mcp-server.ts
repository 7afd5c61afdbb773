/**
 * `agentmux mcp-server`: the stdio MCP server an agent CLI spawns. Configured by env
 * (AGENTMUX_SESSION_DIR, AGENTMUX_PROJECT_DIR, AGENTMUX_ROLE, AGENTMUX_AGENT, AGENTMUX_ALLOWED_TOOLS).
 * stdout is the protocol: nothing else may be written there (its help goes to stderr).
 */
export async function run(): Promise<number> {
  const { restartWithoutJit } = await import("../effects/process/lean.ts");
  restartWithoutJit(["mcp-server"]);
  const { readMcpEnv } = await import("../mcp/env.ts");
  const env = readMcpEnv();
  const { serveStdio } = await import("../mcp/server.ts");
  await serveStdio(env);
  return 0;
}

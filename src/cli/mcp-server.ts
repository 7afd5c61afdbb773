/**
 * `agentmux mcp-server`: the stdio fallback for an agent CLI that cannot use the run's HTTP
 * endpoint. It forwards MCP messages to the endpoint with the agent's token (from its env).
 * stdout is the protocol: nothing else may be written there (its help goes to stderr).
 */
export async function run(): Promise<number> {
  const { readBridgeEnv, runBridge } = await import("../mcp/bridge.ts");
  await runBridge(readBridgeEnv());
  return 0;
}

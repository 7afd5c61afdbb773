import { parseArgs } from "./args.ts";

/**
 * `agentmux mcp-server`: the stdio MCP server an agent CLI spawns. Configured by env
 * (AGENTMUX_SESSION_DIR, AGENTMUX_PROJECT_DIR, AGENTMUX_ROLE, AGENTMUX_AGENT, AGENTMUX_ALLOWED_TOOLS).
 * stdout is the protocol: nothing else may be written there.
 */
export async function run(argv: string[]): Promise<number> {
  const args = parseArgs("mcp-server", argv, { flags: {}, maxPositionals: 0 });
  if (args.flags.help) {
    process.stderr.write(
      [
        "Usage: agentmux mcp-server   (spawned by agent CLIs; speaks MCP on stdin/stdout)",
        "",
        "Environment:",
        "  AGENTMUX_SESSION_DIR     session folder (required)",
        "  AGENTMUX_PROJECT_DIR     the agent's work directory (project root or worktree)",
        "  AGENTMUX_ROLE            the agent's role; limits the tools it may call",
        "  AGENTMUX_AGENT           agent name for the readiness marker (default: the role)",
        "  AGENTMUX_ALLOWED_TOOLS   comma list of tools to serve (default: the role's tools)",
        "",
      ].join("\n"),
    );
    return 0;
  }
  const { readMcpEnv } = await import("../mcp/env.ts");
  const env = readMcpEnv();
  const { serveStdio } = await import("../mcp/server.ts");
  await serveStdio(env);
  return 0;
}

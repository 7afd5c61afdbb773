import { existsSync } from "node:fs";
import { parseArgs, str } from "./args.ts";
import { AgentmuxError } from "../errors.ts";

const HELP = `agentmux sim-agent [--mcp-config FILE] [--prompt FILE]

The simulated agent CLI (internal: demo, tests, CI). Run it in a tmux pane with cwd = the
agent's work dir and env AGENTMUX_SESSION_DIR, AGENTMUX_PROJECT_DIR, AGENTMUX_ROLE,
AGENTMUX_AGENT, AGENTMUX_SIM_SCENARIO (comma-separated switches), AGENTMUX_SIM_THINK_MS.

  --mcp-config FILE   claude-shaped MCP config; its server is spawned at startup
  --prompt FILE       batch mode: do the task in FILE and exit 0 when done
`;

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs("sim-agent", argv, {
    flags: { "mcp-config": { type: "string" }, prompt: { type: "string" } },
    maxPositionals: 0,
  });
  if (args.flags.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const [{ simEnvFromProcess }, { SimMcp, loadMcpConfig }] = await Promise.all([import("../sim/context.ts"), import("../sim/mcp-client.ts")]);
  const env = simEnvFromProcess();
  const mcpFile = str(args.flags["mcp-config"]);
  const mcp = mcpFile ? new SimMcp(loadMcpConfig(mcpFile).server) : null;
  const prompt = str(args.flags.prompt);
  if (prompt !== undefined) {
    if (!existsSync(prompt)) throw new AgentmuxError("usage", "the prompt file does not exist", { where: prompt });
    const { runBatch } = await import("../sim/batch.ts");
    return runBatch(env, prompt, mcp);
  }
  const { SimApp } = await import("../sim/app.ts");
  const code = await new SimApp(env, mcp).run();
  // a crash or Ctrl-C ends the process at once, like a real CLI dying (MCP child sees EOF)
  process.exit(code);
}

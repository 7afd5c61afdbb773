import { statSync } from "node:fs";
import { AgentmuxError } from "../errors.ts";
import { ROLE_TOOLS, ROLES, TOOLS, type Role, type ToolName } from "../schema/catalog.ts";

/** What an `agentmux mcp-server` process serves, from the env the orchestrator gives each agent. */
export type McpEnv = {
  sessionDir: string;
  /** the agent's work directory (project root or worktree); preferences and the gate use it */
  projectDir?: string;
  role?: Role;
  /** names the readiness marker; the role when absent */
  agent: string;
  /** the tools this process lists and accepts */
  tools: readonly ToolName[];
};

function bad(variable: string, message: string, hint: string): AgentmuxError {
  return new AgentmuxError("usage", message, { where: `mcp-server: ${variable}`, hint, exitCode: 2 });
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Reads AGENTMUX_* variables; anything wrong is a usage error (exit 2) naming the variable. */
export function readMcpEnv(env: Record<string, string | undefined> = process.env): McpEnv {
  const sessionDir = env.AGENTMUX_SESSION_DIR?.trim();
  if (!sessionDir) throw bad("AGENTMUX_SESSION_DIR", "is not set", "agentmux sets it in the MCP config it writes for each agent; set it to a session folder (.agentmux/.sessions/<id>)");
  if (!isDir(sessionDir)) throw bad("AGENTMUX_SESSION_DIR", `${sessionDir} is not a directory`, "point it at an existing session folder");

  const projectDir = env.AGENTMUX_PROJECT_DIR?.trim() || undefined;
  if (projectDir && !isDir(projectDir)) throw bad("AGENTMUX_PROJECT_DIR", `${projectDir} is not a directory`, "point it at the agent's work directory");

  const roleText = env.AGENTMUX_ROLE?.trim() || undefined;
  if (roleText && !(ROLES as readonly string[]).includes(roleText)) {
    throw bad("AGENTMUX_ROLE", `unknown role "${roleText}"`, `valid roles: ${ROLES.join(", ")}`);
  }
  const role = roleText as Role | undefined;

  let tools: readonly ToolName[];
  const allowed = env.AGENTMUX_ALLOWED_TOOLS;
  if (allowed !== undefined) {
    const names = allowed.split(",").map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !(TOOLS as readonly string[]).includes(n));
    if (unknown.length) throw bad("AGENTMUX_ALLOWED_TOOLS", `unknown tool ${unknown.map((u) => `"${u}"`).join(", ")}`, `valid tools: ${TOOLS.join(", ")}`);
    tools = [...new Set(names)] as ToolName[];
  } else {
    tools = role ? ROLE_TOOLS[role] : TOOLS;
  }
  const agent = env.AGENTMUX_AGENT?.trim() || role || "agent";
  return { sessionDir, projectDir, role, agent, tools };
}

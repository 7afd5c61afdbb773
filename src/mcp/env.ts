import { statSync } from "node:fs";
import { McpEnvInvalid } from "./errors.ts";
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
  if (!sessionDir) throw new McpEnvInvalid({ variable: "AGENTMUX_SESSION_DIR", problem: "unset" });
  if (!isDir(sessionDir)) throw new McpEnvInvalid({ variable: "AGENTMUX_SESSION_DIR", problem: "not-a-directory", value: sessionDir });

  const projectDir = env.AGENTMUX_PROJECT_DIR?.trim() || undefined;
  if (projectDir && !isDir(projectDir)) throw new McpEnvInvalid({ variable: "AGENTMUX_PROJECT_DIR", problem: "not-a-directory", value: projectDir });

  const roleText = env.AGENTMUX_ROLE?.trim() || undefined;
  if (roleText && !(ROLES as readonly string[]).includes(roleText)) {
    throw new McpEnvInvalid({ variable: "AGENTMUX_ROLE", problem: "unknown-role", value: roleText, valid: ROLES });
  }
  const role = roleText as Role | undefined;

  let tools: readonly ToolName[];
  const allowed = env.AGENTMUX_ALLOWED_TOOLS;
  if (allowed !== undefined) {
    const names = allowed.split(",").map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !(TOOLS as readonly string[]).includes(n));
    if (unknown.length) throw new McpEnvInvalid({ variable: "AGENTMUX_ALLOWED_TOOLS", problem: "unknown-tools", values: unknown, valid: TOOLS });
    tools = [...new Set(names)] as ToolName[];
  } else {
    tools = role ? ROLE_TOOLS[role] : TOOLS;
  }
  const agent = env.AGENTMUX_AGENT?.trim() || role || "agent";
  return { sessionDir, projectDir, role, agent, tools };
}

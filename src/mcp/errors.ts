import { defineError, type ErrorText } from "../errors.ts";

/** An `agentmux mcp-server` (the stdio bridge) started with AGENTMUX_* variables it cannot use (exit 2, naming the variable). */
export type McpBridgeEnvProblem =
  | { variable: "AGENTMUX_MCP_URL" | "AGENTMUX_MCP_TOKEN_FILE"; problem: "unset" }
  | { variable: "AGENTMUX_MCP_URL"; problem: "not-a-url" | "not-local"; value: string }
  | { variable: "AGENTMUX_MCP_TOKEN" | "AGENTMUX_MCP_TOKEN_FILE"; problem: "not-a-token" }
  | { variable: "AGENTMUX_MCP_TOKEN_FILE"; problem: "unreadable"; value: string; reason: string }
  | { variable: "AGENTMUX_MCP_TOKEN_FILE"; problem: "not-private"; value: string; mode: string };

function text(d: McpBridgeEnvProblem): ErrorText {
  const where = `mcp-server: ${d.variable}`;
  const hint =
    "agentmux sets it in the MCP config it writes for each agent; `agentmux mcp-server` is only the stdio fallback for a CLI that cannot reach the run's HTTP endpoint";
  switch (d.problem) {
    case "unset":
      return { message: d.variable === "AGENTMUX_MCP_TOKEN_FILE" ? "is not set (nor AGENTMUX_MCP_TOKEN)" : "is not set", where, hint };
    case "unreadable":
      return { message: `cannot read ${d.value}: ${d.reason}`, where, hint };
    case "not-private":
      return { message: `${d.value} can be read by others (mode ${d.mode}): a token file must be the user's alone (0600)`, where, hint };
    case "not-a-url":
      return { message: `"${d.value}" is not a URL`, where, hint };
    case "not-local":
      return { message: `"${d.value}" is not an http URL on 127.0.0.1`, where, hint };
    case "not-a-token":
      return {
        message:
          d.variable === "AGENTMUX_MCP_TOKEN_FILE"
            ? "names a file that holds no agentmux agent token (64 hex digits)"
            : "is not an agentmux agent token (64 hex digits)",
        where,
        hint,
      };
  }
}

export const McpBridgeEnvInvalid = defineError("McpBridgeEnvInvalid", "usage", text);

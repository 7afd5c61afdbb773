import { defineError, type ErrorText } from "../errors.ts";

/** An `agentmux mcp-server` started with AGENTMUX_* variables it cannot use (exit 2, naming the variable). */
export type McpEnvProblem =
  | { variable: "AGENTMUX_SESSION_DIR"; problem: "unset" }
  | { variable: "AGENTMUX_SESSION_DIR" | "AGENTMUX_PROJECT_DIR"; problem: "not-a-directory"; value: string }
  | { variable: "AGENTMUX_ROLE"; problem: "unknown-role"; value: string; valid: readonly string[] }
  | { variable: "AGENTMUX_ALLOWED_TOOLS"; problem: "unknown-tools"; values: string[]; valid: readonly string[] };

function text(d: McpEnvProblem): ErrorText {
  const where = `mcp-server: ${d.variable}`;
  switch (d.problem) {
    case "unset":
      return { message: "is not set", where, hint: "agentmux sets it in the MCP config it writes for each agent; set it to a session folder (.agentmux/.sessions/<id>)" };
    case "not-a-directory":
      return {
        message: `${d.value} is not a directory`,
        where,
        hint: d.variable === "AGENTMUX_SESSION_DIR" ? "point it at an existing session folder" : "point it at the agent's work directory",
      };
    case "unknown-role":
      return { message: `unknown role "${d.value}"`, where, hint: `valid roles: ${d.valid.join(", ")}` };
    case "unknown-tools":
      return { message: `unknown tool ${d.values.map((u) => `"${u}"`).join(", ")}`, where, hint: `valid tools: ${d.valid.join(", ")}` };
  }
}

export const McpEnvInvalid = defineError("McpEnvInvalid", "usage", text);

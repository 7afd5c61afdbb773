import { defineError } from "../errors.ts";

/** The simulated agent CLI: what it was given that it cannot use, as data. */

export const SimThinkInvalid = defineError("SimThinkInvalid", "usage", (d: { raw: string }) => ({
  message: `must be a number of milliseconds ≥ 0, got "${d.raw}"`,
  where: "AGENTMUX_SIM_THINK_MS",
}));

/** `where`: what held the switches (AGENTMUX_SIM_SCENARIO, or `demo --scenario`). */
export const SimScenarioInvalid = defineError("SimScenarioInvalid", "usage", (d: { problems: string; switches: string[]; where?: string }) => ({
  message: `bad simulated-agent scenario: ${d.problems}`,
  where: d.where ?? "AGENTMUX_SIM_SCENARIO",
  hint: `switches: ${d.switches.join(", ")}`,
}));

export const SimSessionUnknown = defineError("SimSessionUnknown", "session", (d: { prompt: string }) => ({
  message: "cannot tell which session this prompt belongs to",
  where: d.prompt,
  hint: "set AGENTMUX_SESSION_DIR or keep prompts inside the session's phase folders",
}));

export const SimFileUnreadable = defineError("SimFileUnreadable", "artifact", (d: { path: string }) => ({
  message: "cannot read a file the task needs",
  where: d.path,
}));

/** `--mcp-config FILE` cannot be read (`reason`) or does not have the expected shape (`problems`). */
export const McpConfigUnusable = defineError("McpConfigUnusable", "usage", (d: { file: string; reason?: string; problems?: string }) => ({
  message: d.problems !== undefined ? `invalid MCP config: ${d.problems}` : `cannot read the MCP config: ${d.reason ?? ""}`,
  where: d.file,
}));

export const SimConversationIdInvalid = defineError("SimConversationIdInvalid", "usage", (d: { id: string; flag: string }) => ({
  message: `not a conversation id: ${JSON.stringify(d.id)}`,
  where: d.flag,
  hint: "letters, digits, dot, dash and underscore, at most 80",
}));

export const SimTranscriptFormatInvalid = defineError("SimTranscriptFormatInvalid", "usage", (d: { value: string }) => ({
  message: `not a transcript format: ${JSON.stringify(d.value)}`,
  where: "--transcript",
  hint: "claude or codex",
}));

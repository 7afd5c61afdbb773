import { z } from "zod";
import { formatProblem, zodProblems } from "../artifacts/problems.ts";
import { TOOLS, type ToolName } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";
import { ToolInputSchema, ToolInputs, type Preference, type ToolInput } from "../schema/tool-events.ts";
import { preferenceProblem, proposePreferences } from "../session/preferences.ts";
import { TOOL_DESCRIPTIONS } from "./descriptions.ts";
import type { ToolEventLog } from "./events.ts";
import { recordToolCall } from "./activity.ts";
import { admitCall } from "./guard.ts";
import type { AgentIdentity, AgentLink } from "./identity.ts";
import { textResult, type CallToolResult, type McpHandlers, type ToolDefinition } from "./protocol.ts";
import { TOOL_HANDLERS, type ToolHandlers } from "./tools.ts";

/** What the tools need from the orchestrator hosting them — all from its own config and memory. */
export type ToolHost = {
  sessionDir: string;
  /** the main repository (proposed preferences are kept there); never read from state.json */
  projectDir: string;
  /** the orchestrator's current state (phase, active subplans) */
  state: () => State;
  events: ToolEventLog;
  log: (msg: string) => void;
};

/** The MCP tool list entry for one tool; its input schema is derived from ToolInputs. */
export function toolDefinition(name: ToolName): ToolDefinition {
  const { $schema: _drop, ...schema } = z.toJSONSchema(ToolInputs[name], { io: "input" }) as Record<string, unknown>;
  return { name, description: TOOL_DESCRIPTIONS[name], inputSchema: schema };
}

/** A tool's input parsed by its own schema, typed by the tool's name. */
export function parseToolInput<T extends ToolName>(tool: T, args: unknown): z.ZodSafeParseResult<ToolInput<T>> {
  return ToolInputSchema[tool].safeParse(args);
}

const isToolName = (name: string): name is ToolName => (TOOLS as readonly string[]).includes(name);

/** Runs one tool call end to end: admit, validate input, check the agent's file, record the event. */
export async function callTool(host: ToolHost, who: AgentIdentity, name: string, args: unknown): Promise<CallToolResult> {
  if (!isToolName(name)) return textResult(`unknown tool "${name}"; agentmux offers you: ${who.tools.join(", ") || "none"}`, true);
  try {
    return await runTool(host, who, name, args);
  } catch (e) {
    host.log(`${who.agent}: ${name} failed inside agentmux: ${(e as Error)?.stack ?? String(e)}`);
    return textResult(`${name} failed inside agentmux: ${(e as Error)?.message ?? String(e)}. Nothing was recorded; call it again.`, true);
  }
}

async function runTool<T extends ToolName>(host: ToolHost, who: AgentIdentity, tool: T, args: unknown): Promise<CallToolResult> {
  const parsed = parseToolInput(tool, args ?? {});
  if (!parsed.success) {
    const lines = zodProblems(parsed.error, args).map((p) => `  ${formatProblem(p)}`);
    return textResult(`${tool} was refused: invalid arguments:\n${lines.join("\n")}\nNothing was recorded.`, true);
  }
  const input = parsed.data;
  const state = host.state();
  const gate = admitCall(who, tool, input, state);
  if (!gate.ok) return textResult(gate.message, true);
  const prefs: Preference[] = "preferences" in input && input.preferences ? input.preferences : [];
  const badPrefs = prefs.map((p, i) => [i, preferenceProblem(p)] as const).filter(([, m]) => m);
  if (badPrefs.length)
    return textResult(`${tool} was refused:\n${badPrefs.map(([i, m]) => `  preferences[${i}]: ${m}`).join("\n")}\nNothing was recorded.`, true);
  const handler: ToolHandlers[T] = TOOL_HANDLERS[tool];
  const outcome = await handler({ sessionDir: host.sessionDir, role: who.role, state, workDir: who.workDir }, input);
  if (!outcome.ok) return textResult(outcome.message, true);
  host.events.append(tool, outcome.payload, who);
  return textResult(outcome.text + (prefs.length ? proposalNote(host, who, prefs) : ""));
}

/** Preferences an agent proposes are kept as proposals; the user approves them (`agentmux preferences`). */
function proposalNote(host: ToolHost, who: AgentIdentity, prefs: Preference[]): string {
  try {
    const added = proposePreferences(host.projectDir, prefs, { role: who.role, agent: who.agent, session: host.sessionDir });
    return ` ${prefs.length} preference${prefs.length === 1 ? "" : "s"} proposed${added < prefs.length ? ` (${prefs.length - added} already proposed)` : ""}; the user decides with \`agentmux preferences\`.`;
  } catch (e) {
    host.log(`${who.agent}: could not keep proposed preferences: ${(e as Error).message}`);
    return " The proposed preferences could not be kept (the call itself was recorded).";
  }
}

/** The MCP handlers of one agent's connection, tracking the MCP-ready gate on its link. */
export function agentHandlers(host: ToolHost, link: AgentLink): McpHandlers {
  return {
    listTools: () => link.identity.tools.map(toolDefinition),
    callTool: async (name, args) => {
      const result = await callTool(host, link.identity, name, args);
      // activity for the watchdog: a refused submit is the agent at work, not a turn end
      recordToolCall(host.sessionDir, link.identity.agent, name, !result.isError, result.content.map((c) => c.text).join("\n"));
      return result;
    },
    initialized: () => void (link.initializedAt ??= Date.now()),
    listed: () => {
      if (link.initializedAt !== undefined) link.readyAt ??= Date.now();
    },
  };
}

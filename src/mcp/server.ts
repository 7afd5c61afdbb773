import { join } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { formatProblem, zodProblems } from "../artifacts/problems.ts";
import { writeJsonAtomic } from "../effects/fs/atomic.ts";
import { TOOLS, type ToolName } from "../schema/catalog.ts";
import { ToolInputSchema, ToolInputs, type Preference, type ToolInput } from "../schema/tool-events.ts";
import { mcpReadyFile } from "../session/paths.ts";
import { VERSION } from "../version.ts";
import { TOOL_DESCRIPTIONS } from "./descriptions.ts";
import type { McpEnv } from "./env.ts";
import { appendToolEvent } from "./events.ts";
import { recordToolCall } from "./activity.ts";
import { admitCall } from "./guard.ts";
import { applyPreferences, preferenceProblem } from "./preferences.ts";
import { TOOL_HANDLERS, type ToolHandlers } from "./tools.ts";

const log = (msg: string) => process.stderr.write(`agentmux mcp-server: ${msg}\n`);
const reply = (text: string, isError = false): CallToolResult => ({ content: [{ type: "text", text }], ...(isError ? { isError: true } : {}) });

/** The MCP tool list entry for one tool; its input schema is derived from ToolInputs. */
export function toolDefinition(name: ToolName): Tool {
  const { $schema: _drop, ...schema } = z.toJSONSchema(ToolInputs[name], { io: "input" }) as Record<string, unknown>;
  return { name, description: TOOL_DESCRIPTIONS[name], inputSchema: schema as Tool["inputSchema"] };
}

/** A tool's input parsed by its own schema, typed by the tool's name. */
export function parseToolInput<T extends ToolName>(tool: T, args: unknown): z.ZodSafeParseResult<ToolInput<T>> {
  return ToolInputSchema[tool].safeParse(args);
}

const isToolName = (name: string): name is ToolName => (TOOLS as readonly string[]).includes(name);

/** Runs one tool call end to end: admit, validate input, check the agent's file, record the event. */
export async function callTool(env: McpEnv, name: string, args: unknown): Promise<CallToolResult> {
  if (!isToolName(name)) return reply(`unknown tool "${name}"; this server offers: ${env.tools.join(", ")}`, true);
  return runTool(env, name, args);
}

async function runTool<T extends ToolName>(env: McpEnv, tool: T, args: unknown): Promise<CallToolResult> {
  const parsed = parseToolInput(tool, args ?? {});
  if (!parsed.success) {
    const lines = zodProblems(parsed.error, args).map((p) => `  ${formatProblem(p)}`);
    return reply(`${tool} was refused: invalid arguments:\n${lines.join("\n")}\nNothing was recorded.`, true);
  }
  const input = parsed.data;
  const gate = await admitCall(env, tool, input);
  if (!gate.ok) return reply(gate.message, true);
  const prefs: Preference[] = "preferences" in input && input.preferences ? input.preferences : [];
  const badPrefs = prefs.map((p, i) => [i, preferenceProblem(p)] as const).filter(([, m]) => m);
  if (badPrefs.length) return reply(`${tool} was refused:\n${badPrefs.map(([i, m]) => `  preferences[${i}]: ${m}`).join("\n")}\nNothing was recorded.`, true);
  const workDir = env.projectDir ?? gate.state.worktree_path ?? gate.state.project_dir ?? process.cwd();
  const handler: ToolHandlers[T] = TOOL_HANDLERS[tool];
  const outcome = await handler({ env, state: gate.state, workDir }, input);
  if (!outcome.ok) return reply(outcome.message, true);
  let prefNote = "";
  if (prefs.length) {
    // preferences belong to the main project (prompts are read there), not to a worktree
    const written = applyPreferences(gate.state.main_repo_dir ?? gate.state.project_dir ?? env.projectDir ?? workDir, prefs);
    const total = Object.values(written).reduce((a, b) => a + b, 0);
    prefNote = ` ${total} new preference${total === 1 ? "" : "s"} saved${total < prefs.length ? ` (${prefs.length - total} already known)` : ""}.`;
  }
  appendToolEvent(env.sessionDir, tool, outcome.payload);
  return reply(outcome.text + prefNote);
}

export type McpRuntime = {
  server: Server;
  /** call after a message has been written to the client (drops the readiness marker) */
  afterSend(message: { id?: string | number }): void;
  /** resolves when no tool call is running */
  drained(): Promise<void>;
};

/**
 * The MCP server of one agent. After the first `tools/list` response has been written, the
 * readiness marker the orchestrator waits for (before prompting the pane) is dropped.
 */
export function createMcpServer(env: McpEnv): McpRuntime {
  const server = new Server({ name: "agentmux", version: VERSION }, { capabilities: { tools: {} } });
  const listRequests = new Set<string | number>();
  const running = new Set<Promise<unknown>>();
  let marked = false;
  server.setRequestHandler(ListToolsRequestSchema, async (_req, extra) => {
    listRequests.add(extra.requestId);
    return { tools: env.tools.map(toolDefinition) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const call = callTool(env, req.params.name, req.params.arguments).then(
      (result) => {
        log(`${req.params.name}: ${result.isError ? "refused" : "ok"}`);
        const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
        recordToolCall(env.sessionDir, env.agent, req.params.name, !result.isError, text);
        return result;
      },
      (e) => {
        log(`${req.params.name}: internal error: ${(e as Error)?.stack ?? String(e)}`);
        return reply(`${req.params.name} failed inside agentmux: ${(e as Error)?.message ?? String(e)}. Nothing was recorded; call it again.`, true);
      },
    );
    running.add(call);
    try {
      return await call;
    } finally {
      running.delete(call);
    }
  });
  return {
    server,
    afterSend(message) {
      if (marked || message.id === undefined || !listRequests.has(message.id)) return;
      marked = true;
      const marker = join(env.sessionDir, mcpReadyFile(env.agent));
      try {
        writeJsonAtomic(marker, { pid: process.pid, at: new Date().toISOString(), tools: [...env.tools] });
      } catch (e) {
        log(`cannot write readiness marker ${marker}: ${(e as Error).message}`);
      }
    },
    async drained() {
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}

/** Serves MCP on stdin/stdout until stdin ends; resolves once in-flight calls have finished. */
export async function serveStdio(env: McpEnv): Promise<void> {
  const rt = createMcpServer(env);
  const transport = new StdioServerTransport();
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    rt.afterSend(message as { id?: string | number });
  };
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await rt.server.connect(transport);
  process.stdin.once("end", () => void transport.close());
  await closed;
  await rt.drained();
  log("stdin closed; exiting");
}

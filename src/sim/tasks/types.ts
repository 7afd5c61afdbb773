import type { SimSession } from "../context.ts";
import type { ToolOutcome } from "../mcp-client.ts";

/** What a task may do: touch files, talk in the transcript, call MCP tools, wait for a notice. */
export type TaskIO = {
  s: SimSession;
  say(line: string): void;
  /** Call an MCP tool; the call and its answer are shown in the transcript. */
  tool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** The per-step delay (AGENTMUX_SIM_THINK_MS). */
  think(): Promise<void>;
  /** Go idle until a non-prompt line (an orchestrator notice) is submitted; returns it. */
  waitForNotice(what: string): Promise<string>;
  /** Scenario crash: the process exits (status 3); never returns. */
  crash(): Promise<never>;
};

export type Task = { name: string; run(io: TaskIO): Promise<void> };

/** A task that could not finish (a refused tool after its retries, a missing input). */
export class TaskFailed extends Error {}

/** agentmux itself could not be reached: the task stops and waits to be prompted again (after resume). */
export class AgentmuxDown extends TaskFailed {}

/** Call a tool that must succeed; a refusal stops the task with the tool's message. */
export async function mustCall(io: TaskIO, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await io.tool(name, args);
  if (!r.ok) throw new TaskFailed(`${name} was refused: ${r.text}`);
  return r.text;
}

/** Write a session artifact (atomic) and say so. */
export function writeArtifact(io: TaskIO, rel: string, content: string): void {
  io.s.write(rel, content);
  io.say(`● wrote ${rel}`);
}

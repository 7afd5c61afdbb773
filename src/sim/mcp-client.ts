import { readRegularFile } from "../effects/fs/read-regular.ts";
import { formatProblem } from "../session/problems.ts";
import { parseJsonText } from "../session/syntax.ts";
import { z } from "zod";
import { McpConfigUnusable } from "./errors.ts";
import { AGENTMUX_DOWN, McpClientConfig, agentmuxDown, type McpServerEntry } from "../schema/mcp-client-config.ts";

/** A tool call's outcome; `down`: agentmux could not be reached at all (nothing was recorded). */
export type ToolOutcome = { ok: boolean; text: string; down?: boolean };

/** Read `--mcp-config FILE` (claude's shape); the `agentmux` server, else the first one. */
export function loadMcpConfig(file: string): { name: string; server: McpServerEntry } {
  const read = readRegularFile(file);
  const json = read.ok ? parseJsonText(read.text) : { ok: false as const, problems: [{ path: "", message: read.message }] };
  if (!json.ok) throw new McpConfigUnusable({ file, reason: json.problems.map(formatProblem).join("; ") });
  const parsed = McpClientConfig.safeParse(json.data);
  if (!parsed.success) {
    throw new McpConfigUnusable({ file, problems: z.prettifyError(parsed.error).replace(/\n/g, "; ") });
  }
  const servers = parsed.data.mcpServers;
  const name = "agentmux" in servers ? "agentmux" : Object.keys(servers)[0]!;
  return { name, server: servers[name]! };
}

/** A connection that could not be made at all (the run's orchestrator, hosting the endpoint, is gone). */
const isUnreachable = (e: unknown) =>
  /ECONNREFUSED|ECONNRESET|fetch failed|Unable to connect|socket connection was closed|ConnectionRefused/i.test(
    `${(e as Error)?.message ?? ""} ${String((e as { code?: unknown })?.code ?? "")} ${String((e as { cause?: unknown })?.cause ?? "")}`,
  );

/**
 * The simulated agent's MCP connection, made at startup like a real CLI does, from the config
 * agentmux generated for it: streamable HTTP to the run's endpoint with the agent's token in
 * the Authorization header (or stdio: `agentmux mcp-server`), through the MCP SDK client.
 */
export class SimMcp {
  private client: any;
  readonly ready: Promise<string[]>;
  readonly stderrTail: string[] = [];

  constructor(readonly server: McpServerEntry) {
    this.ready = this.connect();
    this.ready.catch(() => undefined);
  }

  private async transport(): Promise<unknown> {
    const s = this.server;
    if ("url" in s) {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
      return new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } });
    }
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, s.env);
    const t = new StdioClientTransport({ command: s.command, args: s.args, env, cwd: s.cwd, stderr: "pipe" });
    t.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n").filter(Boolean)) {
        this.stderrTail.push(line);
        if (this.stderrTail.length > 20) this.stderrTail.shift();
      }
    });
    return t;
  }

  private async connect(): Promise<string[]> {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    this.client = new Client({ name: "agentmux-sim", version: "1.0.0" });
    await this.client.connect(await this.transport());
    const tools = await this.client.listTools();
    return (tools.tools as { name: string }[]).map((t) => t.name);
  }

  /** Call a tool; protocol errors and `isError` results both come back as `{ok:false}`. */
  async call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    try {
      await this.ready;
    } catch (e) {
      if (isUnreachable(e)) return { ok: false, down: true, text: agentmuxDown(name) };
      const tail = this.stderrTail.slice(-3).join(" | ");
      return { ok: false, text: `MCP server unavailable: ${(e as Error).message}${tail ? ` (${tail})` : ""}` };
    }
    try {
      const res = await this.client.callTool({ name, arguments: args });
      const text = ((res.content ?? []) as { type: string; text?: string }[])
        .filter((c) => c.type === "text")
        .map((c) => c.text ?? "")
        .join("\n");
      return { ok: !res.isError, text, ...(res.isError && AGENTMUX_DOWN.test(text) ? { down: true } : {}) };
    } catch (e) {
      if (isUnreachable(e)) return { ok: false, down: true, text: agentmuxDown(name) };
      return { ok: false, text: (e as Error).message };
    }
  }

  async close(): Promise<void> {
    try {
      await this.client?.close();
    } catch {
      /* already gone */
    }
  }
}

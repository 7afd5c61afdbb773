import { readRegularFile } from "../effects/fs/read-regular.ts";
import { formatProblem } from "../session/problems.ts";
import { parseJsonText } from "../session/syntax.ts";
import { z } from "zod";
import { McpConfigUnusable } from "./errors.ts";
import { McpClientConfig, type McpStdioServer } from "../schema/mcp-client-config.ts";

export type ToolOutcome = { ok: boolean; text: string };

/** Read `--mcp-config FILE` (claude's shape); the `agentmux` server, else the first one. */
export function loadMcpConfig(file: string): { name: string; server: McpStdioServer } {
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

/**
 * The simulated agent's MCP connection: spawned at startup like a real CLI does, with the
 * SDK client over stdio. The server's stderr is kept (last lines) instead of drawn on screen.
 */
export class SimMcp {
  private client: any;
  readonly ready: Promise<string[]>;
  readonly stderrTail: string[] = [];

  constructor(readonly server: McpStdioServer) {
    this.ready = this.connect();
    this.ready.catch(() => undefined);
  }

  private async connect(): Promise<string[]> {
    const [{ Client }, { StdioClientTransport }] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/stdio.js"),
    ]);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, this.server.env);
    const transport = new StdioClientTransport({
      command: this.server.command,
      args: this.server.args,
      env,
      cwd: this.server.cwd,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n").filter(Boolean)) {
        this.stderrTail.push(line);
        if (this.stderrTail.length > 20) this.stderrTail.shift();
      }
    });
    this.client = new Client({ name: "agentmux-sim", version: "1.0.0" });
    await this.client.connect(transport);
    const tools = await this.client.listTools();
    return (tools.tools as { name: string }[]).map((t) => t.name);
  }

  /** Call a tool; protocol errors and `isError` results both come back as `{ok:false}`. */
  async call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    try {
      await this.ready;
    } catch (e) {
      const tail = this.stderrTail.slice(-3).join(" | ");
      return { ok: false, text: `MCP server unavailable: ${(e as Error).message}${tail ? ` (${tail})` : ""}` };
    }
    try {
      const res = await this.client.callTool({ name, arguments: args });
      const text = ((res.content ?? []) as { type: string; text?: string }[])
        .filter((c) => c.type === "text")
        .map((c) => c.text ?? "")
        .join("\n");
      return { ok: !res.isError, text };
    } catch (e) {
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

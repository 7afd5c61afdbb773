import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { readFrom } from "../effects/fs/read-range.ts";
import { ToolCallLine } from "../schema/tool-calls.ts";
import { F } from "../protocol/paths.ts";

/**
 * Tails `.runtime/tool_calls.jsonl` (every agentmux tool call, accepted or refused) from the
 * moment the orchestrator starts: each new call is handed over once, and the time of each
 * agent's last call is kept (a call after a paste proves the prompt was accepted).
 */
export class ToolCallTail {
  private watcher: FSWatcher | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly path: string;
  private offset: number;
  private partial = "";
  private readonly last = new Map<string, number>();

  constructor(
    sessionDir: string,
    private readonly onCall: (call: ToolCallLine) => void,
    private readonly pollMs = 250,
  ) {
    this.path = join(sessionDir, F.toolCalls);
    this.offset = existsSync(this.path) ? statSync(this.path).size : 0;
  }

  start(): void {
    try {
      this.watcher = watch(join(this.path, ".."), () => this.drain());
    } catch {
      /* the poll below still reads new calls */
    }
    this.timer = setInterval(() => this.drain(), this.pollMs);
  }

  stop(): void {
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
  }

  /** When `agent` last called a tool (performance.now() of when it was seen), or 0. */
  lastCallAt(agent: string): number {
    this.drain();
    return this.last.get(agent) ?? 0;
  }

  drain(): void {
    const chunk = readFrom(this.path, this.offset);
    if (!chunk || !chunk.buf.length) return;
    this.offset = chunk.start + chunk.buf.length;
    const lines = (this.partial + chunk.buf.toString("utf8")).split("\n");
    this.partial = lines.pop() ?? "";
    for (const text of lines) {
      let parsed;
      try {
        parsed = ToolCallLine.safeParse(JSON.parse(text));
      } catch {
        continue;
      }
      if (!parsed.success) continue;
      this.last.set(parsed.data.agent, performance.now());
      this.onCall(parsed.data);
    }
  }
}

import { watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { F } from "../session/paths.ts";
import { readToolLines, type ToolLine } from "./tool-lines.ts";

/**
 * Tails tool_events.jsonl from a byte offset: every complete new line is handed over once,
 * in order. fs.watch makes it immediate; a slow poll covers missed notifications.
 */
export class ToolTail {
  private watcher: FSWatcher | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly path: string;

  constructor(
    sessionDir: string,
    private offset: number,
    private readonly onLine: (line: ToolLine) => void,
    private readonly pollMs = 500,
  ) {
    this.path = join(sessionDir, F.toolEvents);
  }

  start(): void {
    try {
      this.watcher = watch(this.path, () => this.drain());
    } catch {
      /* the file may not exist yet: the poll picks it up */
    }
    this.timer = setInterval(() => this.drain(), this.pollMs);
    this.drain();
  }

  stop(): void {
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
  }

  drain(): void {
    const lines = readToolLines(this.path, this.offset);
    for (const line of lines) {
      this.offset = line.end;
      this.onLine(line);
    }
  }
}

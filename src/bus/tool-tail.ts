import { statSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { F } from "../protocol/paths.ts";
import { readToolLines, type ToolLine } from "./tool-lines.ts";

/**
 * Tails tool_events.jsonl from a byte offset: every complete new line is handed over once,
 * in order. fs.watch makes it immediate; a slow poll covers missed notifications. When the
 * file is truncated (shorter than what was read), replaced (another inode) or deleted, the
 * tail says why (`onReset`) and reads the file again from its start — the consumer skips lines
 * it applied before by their `seq`, so nothing is lost and nothing applied twice.
 */
export class ToolTail {
  private watcher: FSWatcher | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly path: string;
  private inode: number | undefined;

  constructor(
    sessionDir: string,
    private offset: number,
    private readonly onLine: (line: ToolLine) => void,
    private readonly onReset: (cause: string) => void = () => {},
    private readonly pollMs = 500,
  ) {
    this.path = join(sessionDir, F.toolEvents);
  }

  start(): void {
    this.arm();
    this.timer = setInterval(() => this.drain(), this.pollMs);
    this.drain();
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearInterval(this.timer);
  }

  private arm(): void {
    this.watcher?.close();
    this.watcher = null;
    try {
      this.watcher = watch(this.path, () => this.drain());
    } catch {
      /* the file may not exist yet: the poll picks it up */
    }
  }

  private reset(cause: string): void {
    this.offset = 0;
    this.inode = undefined;
    this.onReset(cause);
    this.arm();
  }

  drain(): void {
    let st: { ino: number; size: number };
    try {
      st = statSync(this.path);
    } catch {
      if (this.offset > 0 || this.inode !== undefined) this.reset("was deleted");
      return;
    }
    if (this.inode !== undefined && st.ino !== this.inode) this.reset("was replaced by another file");
    else if (st.size < this.offset) this.reset(`was truncated (${st.size} bytes, ${this.offset} had been read)`);
    if (this.inode === undefined) {
      this.inode = st.ino;
      if (!this.watcher) this.arm();
    }
    const lines = readToolLines(this.path, this.offset);
    for (const line of lines) {
      this.offset = line.end;
      this.onLine(line);
    }
  }
}

import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, watch, writeFileSync, type FSWatcher } from "node:fs";
import { dirname } from "node:path";

/**
 * Tails the file the CLIs' own turn-end hooks append to (claude's Stop hook, codex's notify
 * program): one line per turn end, the launch's turn-end id (a per-launch random id, mapped to
 * its agent by the daemon; an unknown id is ignored). fs.watch makes it immediate; a poll covers
 * missed notifications.
 */
export class TurnEndTail {
  private watcher: FSWatcher | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private fd: number | null = null;
  private offset = 0;
  private partial = "";

  constructor(
    private readonly file: string,
    private readonly onId: (id: string) => void,
    private readonly pollMs = 250,
  ) {}

  start(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    if (!existsSync(this.file)) writeFileSync(this.file, "", { mode: 0o600 });
    this.fd = openSync(this.file, "r");
    this.offset = fstatSync(this.fd).size;
    try {
      this.watcher = watch(this.file, () => this.drain());
    } catch {
      /* the poll reads new lines */
    }
    this.timer = setInterval(() => this.drain(), this.pollMs);
  }

  stop(): void {
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  drain(): void {
    if (this.fd === null) return;
    const size = fstatSync(this.fd).size;
    if (size < this.offset) this.offset = 0;
    if (size === this.offset) return;
    const buf = Buffer.alloc(size - this.offset);
    const n = readSync(this.fd, buf, 0, buf.length, this.offset);
    this.offset += n;
    const lines = (this.partial + buf.subarray(0, n).toString("utf8")).split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) if (/^[0-9a-f-]{36}$/.test(line.trim())) this.onId(line.trim());
  }
}

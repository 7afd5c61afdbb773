import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { inertLine } from "../../schema/inert-text.ts";
import { writeFailed } from "../fs/io-error.ts";

export type LogCaps = {
  /** the first bytes of the output, written to the file as they arrive */
  headBytes: number;
  /** the last bytes of the output, kept in memory and written when the log is closed */
  tailBytes: number;
};

export const DEFAULT_LOG_CAPS: LogCaps = { headBytes: 1024 * 1024, tailBytes: 256 * 1024 };

export type ClosedLog = {
  /** bytes the command wrote in all */
  bytes: number;
  /** bytes left out of the file (between the head and the tail) */
  dropped: number;
  /** the last `lines` lines of the output, control characters stripped */
  tail: string[];
  /** why the file holds less than that (a full or read-only disk, named: effects/fs/io-error.ts), or null */
  problem: string | null;
};

/**
 * An output log of bounded size however much a command prints: the head streams to the file,
 * the tail is a ring of the last `tailBytes` in memory, and on close the tail follows a marker
 * saying how many bytes were dropped between them. Memory stays at tailBytes plus one chunk.
 * A file that cannot be written (ENOSPC, EROFS) never stops the command or the process reading
 * its output: the first failure is kept, named, as `problem`, and the tail is still returned.
 */
export class CappedLog {
  private fd: number | null = null;
  private problem: string | null = null;
  private bytes = 0;
  private ring: Buffer[] = [];
  private ringSize = 0;
  private closed: ClosedLog | null = null;

  constructor(
    readonly path: string,
    private readonly caps: LogCaps = DEFAULT_LOG_CAPS,
  ) {
    this.attempt(() => {
      mkdirSync(dirname(path), { recursive: true });
      this.fd = openSync(path, "w", 0o600);
    });
  }

  /** A file operation; its failure is remembered (the first one) and the file left alone from then on. */
  private attempt(write: () => void): void {
    if (this.problem) return;
    try {
      write();
    } catch (e) {
      const named = writeFailed("the output log", this.path, e);
      this.problem = named instanceof Error ? named.message : String(named);
      if (this.fd !== null) {
        try {
          closeSync(this.fd);
        } catch {}
        this.fd = null;
      }
    }
  }

  write(chunk: Buffer): void {
    if (this.closed) return;
    const start = this.bytes;
    this.bytes += chunk.length;
    if (start < this.caps.headBytes) this.attempt(() => writeSync(this.fd!, chunk, 0, Math.min(chunk.length, this.caps.headBytes - start)));
    this.ring.push(chunk);
    this.ringSize += chunk.length;
    while (this.ring.length > 1 && this.ringSize - this.ring[0]!.length >= this.caps.tailBytes) this.ringSize -= this.ring.shift()!.length;
  }

  /** Write the tail (and the marker of what was dropped) and close the file; idempotent. */
  close(lines = 40): ClosedLog {
    if (this.closed) return this.closed;
    const ring = Buffer.concat(this.ring);
    const kept = ring.subarray(Math.max(0, ring.length - this.caps.tailBytes));
    const afterHead = Math.max(0, this.bytes - this.caps.headBytes);
    const tailToWrite = kept.subarray(Math.max(0, kept.length - afterHead));
    const dropped = afterHead - tailToWrite.length;
    if (dropped > 0)
      this.attempt(() =>
        writeSync(
          this.fd!,
          `\n[agentmux: ${dropped} bytes of output dropped here; the first ${this.caps.headBytes} and the last ${tailToWrite.length} are kept]\n`,
        ),
      );
    if (tailToWrite.length > 0) this.attempt(() => writeSync(this.fd!, tailToWrite));
    this.attempt(() => closeSync(this.fd!));
    this.fd = null;
    this.ring = [];
    this.closed = { bytes: this.bytes, dropped, tail: tailLines(kept, this.bytes > kept.length, lines), problem: this.problem };
    return this.closed;
  }
}

function tailLines(kept: Buffer, cut: boolean, n: number): string[] {
  const all = kept.toString("utf8").split("\n");
  if (cut) all.shift(); // a partial first line
  while (all.length > 0 && all.at(-1)!.trim() === "") all.pop();
  return all.slice(-n).map(inertLine);
}

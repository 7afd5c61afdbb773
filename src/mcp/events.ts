import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { appendRecord } from "../effects/fs/atomic.ts";
import { withFileLock } from "../effects/fs/lock.ts";
import { checkSeal, sealLine, type SealKey } from "../bus/tool-seal.ts";
import type { Role, ToolName } from "../schema/catalog.ts";
import { ToolPayloadSchema, type ToolPayload } from "../schema/tool-events.ts";
import { F } from "../protocol/paths.ts";

export type Caller = { agent: string; role: Role };

/**
 * The highest sealed `seq` in the log: its last sealed line (lines are appended in seq order),
 * read backwards 64 KB at a time. Lines nobody sealed after it (appended by hand, however many)
 * are passed over: stopping short of it would hand out a seq again, and the later call with it
 * would be skipped as applied.
 */
function lastSealedSeq(path: string, key: SealKey): number {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return 0;
  }
  try {
    let end = fstatSync(fd).size;
    let tail = Buffer.alloc(0); // the start of a line cut by the previous piece's boundary
    while (end > 0) {
      const from = Math.max(0, end - 65536);
      const piece = Buffer.alloc(end - from);
      readSync(fd, piece, 0, piece.length, from);
      const buf = Buffer.concat([piece, tail]);
      // the first line may continue in the piece before: kept for the next round unless at the start
      const cut = from > 0 ? buf.indexOf(0x0a) : -1;
      if (from > 0 && cut < 0) {
        // one line longer than the pieces read so far: all of it is carried
        tail = buf;
        end = from;
        continue;
      }
      const lines = buf
        .subarray(cut + 1)
        .toString("utf8")
        .split("\n");
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i]!.trim();
        if (!line || !checkSeal(key, line)) continue;
        const seq = /"seq":(\d+),"seal":/.exec(line)?.[1];
        if (seq) return Number(seq);
      }
      tail = cut >= 0 ? buf.subarray(0, cut) : Buffer.alloc(0);
      end = from;
    }
    return 0;
  } finally {
    closeSync(fd);
  }
}

/**
 * The writer of `tool_events.jsonl`: one sealed line per accepted call, `{"tool", "timestamp",
 * "payload", "agent", "role", "seq", "seal"}`, appended whole on a fresh line and fsynced under
 * the session's tool-event lock (effects/fs appendRecord). A failed append throws, and the
 * caller tells the agent nothing was recorded.
 */
export class ToolEventLog {
  private seq: number;
  private readonly path: string;
  /** the lines this process appended, by seq (their SHA-256): see `wrote` */
  private readonly mine = new Map<number, string>();

  constructor(
    private readonly sessionDir: string,
    private readonly key: SealKey,
    appliedSeq = 0,
  ) {
    this.path = join(sessionDir, F.toolEvents);
    this.seq = Math.max(appliedSeq, lastSealedSeq(this.path, key));
  }

  append<T extends ToolName>(tool: T, payload: ToolPayload<T>, caller: Caller): { seq: number; line: string } {
    const checked = ToolPayloadSchema[tool].parse(payload);
    return withFileLock(join(this.sessionDir, F.toolEventsLock), () => {
      const seq = this.seq + 1;
      const body = JSON.stringify({ tool, timestamp: new Date().toISOString(), payload: checked, agent: caller.agent, role: caller.role, seq });
      const line = sealLine(this.key, body);
      appendRecord(this.path, line);
      this.seq = seq;
      this.mine.set(seq, digest(line));
      return { seq, line };
    });
  }

  /**
   * Whether this process appended exactly `text` as line `seq`. While the orchestrator runs, the
   * lines it applies are its own: a sealed line appended by anything else (a process that read the
   * seal key) is not, whatever its seal says.
   */
  wrote(seq: number, text: string): boolean {
    const d = this.mine.get(seq);
    return d !== undefined && d === digest(text);
  }
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

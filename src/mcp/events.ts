import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { appendRecord } from "../effects/fs/atomic.ts";
import { withFileLock } from "../effects/fs/lock.ts";
import { checkSeal, sealLine, type SealKey } from "../bus/tool-seal.ts";
import type { Role, ToolName } from "../schema/catalog.ts";
import { ToolPayloadSchema, type ToolPayload } from "../schema/tool-events.ts";
import { F } from "../session/paths.ts";

export type Caller = { agent: string; role: Role };

/** The highest sealed `seq` in the last 64 KB of the log (lines are appended in seq order). */
function lastSealedSeq(path: string, key: SealKey): number {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return 0;
  }
  try {
    const size = fstatSync(fd).size;
    const from = Math.max(0, size - 65536);
    const buf = Buffer.alloc(size - from);
    readSync(fd, buf, 0, buf.length, from);
    const lines = buf.toString("utf8").split("\n");
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]!.trim();
      if (!line || !checkSeal(key, line)) continue;
      const seq = /"seq":(\d+),"seal":/.exec(line)?.[1];
      if (seq) return Number(seq);
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
      return { seq, line };
    });
  }
}

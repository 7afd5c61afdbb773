import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import type { Snapshot } from "../schema/tool-events.ts";
import { F } from "../protocol/paths.ts";

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Keep the exact bytes the endpoint validated: `.runtime/snapshots/<sha256>.<ext>`, written
 * atomically before the tool line that names it is appended. Content-addressed, so a second
 * call with the same bytes reuses the file (rewritten if someone changed it).
 */
export function writeSnapshot(sessionDir: string, bytes: Uint8Array, sourceName: string): Snapshot {
  const hash = sha256(bytes);
  const ext = (
    extname(sourceName)
      .slice(1)
      .toLowerCase()
      .replace(/[^a-z]/g, "") || "txt"
  ).slice(0, 8);
  const path = `${F.snapshotsDir}/${hash}.${ext}`;
  const abs = join(sessionDir, path);
  const intact = existsSync(abs) && sha256(readFileSync(abs)) === hash;
  if (!intact) writeFileAtomic(abs, bytes, { mode: 0o600 });
  return { path, sha256: hash };
}

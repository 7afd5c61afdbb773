import { existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import { F } from "../protocol/paths.ts";

/**
 * Keep a decision the commit refused out of the way: `08_completion/approval.json` becomes
 * `approval.rejected-<n>.json` beside it, so the next resume asks again instead of failing on
 * the same file. Returns the new path (null when there was no decision file).
 */
export function setDecisionAside(sessionDir: string): string | null {
  const from = join(sessionDir, F.approval);
  if (!existsSync(from)) return null;
  for (let n = 1; ; n++) {
    const to = join(sessionDir, F.approval.replace(/\.json$/, `.rejected-${n}.json`));
    if (existsSync(to)) continue;
    renameSync(from, to);
    return to;
  }
}

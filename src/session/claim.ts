import { readFileSync, renameSync, rmSync } from "node:fs";

let claims = 0;

/**
 * Take a request file exactly once: rename it away (atomic, so of two readers only one gets
 * it), read it, delete it. Null when there was none (or another reader took it first).
 */
export function claimFile(path: string): string | null {
  const claimed = `${path}.taken-${process.pid}-${claims++}`;
  try {
    renameSync(path, claimed);
  } catch {
    return null;
  }
  try {
    return readFileSync(claimed, "utf8");
  } catch {
    return "";
  } finally {
    rmSync(claimed, { force: true });
  }
}

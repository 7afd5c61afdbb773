import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where an atomic write makes its temp file. The session folder of a run in place is inside the
 * checkout, and the project's own tools walk the checkout (a test runner looking for its files):
 * a temp file that appears there and vanishes at the rename breaks a walker that listed it and
 * then looks at it (ENOENT). So the temp file is made in agentmux's own folder outside any
 * checkout, `$XDG_CACHE_HOME/agentmux/tmp` (0700), whenever that folder is on the target's
 * filesystem (a rename cannot cross one); else, and for a folder where a rename from there
 * failed (another mount of the same disk), beside the target as before.
 */
const STALE_MS = 24 * 3600_000;

let own: { dir: string; dev: number } | null | undefined;
const besideOnly = new Set<string>();

function ownTempDir(): { dir: string; dev: number } | null {
  if (own !== undefined) return own;
  try {
    const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "agentmux", "tmp");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    own = { dir, dev: statSync(dir).dev };
    sweep(dir);
  } catch {
    own = null; // no writable home (a sandbox, a read-only HOME): beside the target
  }
  return own;
}

/** Temp files a killed process left (a day old and more): once per process. */
function sweep(dir: string): void {
  for (const name of readdirSync(dir)) {
    try {
      if (Date.now() - statSync(join(dir, name)).mtimeMs > STALE_MS) rmSync(join(dir, name), { force: true });
    } catch {
      /* another process took it meanwhile */
    }
  }
}

/** The folder for the temp file of a write into `targetDir`. */
export function tempDirFor(targetDir: string): string {
  if (besideOnly.has(targetDir)) return targetDir;
  const o = ownTempDir();
  if (!o) return targetDir;
  try {
    return statSync(targetDir).dev === o.dev ? o.dir : targetDir;
  } catch {
    return targetDir; // missing: the write fails there, as it should
  }
}

/** A rename from the own folder into `targetDir` failed with EXDEV: its temp files go beside it from now on. */
export function keepBeside(targetDir: string): void {
  besideOnly.add(targetDir);
}

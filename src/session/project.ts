import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { AGENTMUX_DIR } from "../protocol/paths.ts";

/**
 * The project a command works on: the nearest ancestor of `cwd` that has a `.agentmux/`
 * folder, else the nearest git work tree root, else `cwd` itself.
 */
export function findProjectDir(cwd: string = process.cwd()): string {
  return projectOf(cwd) ?? resolve(cwd);
}

/** The project `cwd` is in (as findProjectDir), or null when it is in none: no `.agentmux/` and no git work tree above it. */
export function projectOf(cwd: string = process.cwd()): string | null {
  const start = resolve(cwd);
  let gitRoot: string | null = null;
  for (let dir = start; ; dir = dirname(dir)) {
    if (isDir(join(dir, AGENTMUX_DIR))) return dir;
    if (!gitRoot && existsSync(join(dir, ".git"))) gitRoot = dir;
    if (dirname(dir) === dir) break;
  }
  return gitRoot;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

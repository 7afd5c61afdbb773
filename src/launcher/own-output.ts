import { readlinkSync, realpathSync, statSync } from "node:fs";
import { relative, sep } from "node:path";
import type { PreexistingChanges } from "../schema/preexisting.ts";

/**
 * The files this launcher's own output goes to (`agentmux run --ci … > run.log 2>&1`) when they
 * lie inside `root`: the run must not take them for its change. Committed, a checkout switch
 * back to the start branch would delete them from under the shell still writing them. Linux
 * names an open descriptor's file in /proc; elsewhere nothing is found.
 */
export function ownOutputFiles(root: string, fds: readonly number[] = [1, 2]): string[] {
  let base: string;
  try {
    base = realpathSync(root);
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const fd of fds) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (!target.startsWith("/") || !statSync(target).isFile()) continue;
      const rel = relative(base, realpathSync(target));
      if (rel && !rel.startsWith("..") && !rel.startsWith(sep)) out.add(rel.split(sep).join("/"));
    } catch {
      /* not a file, gone, or no /proc */
    }
  }
  return [...out];
}

/** `before` with the launcher's own output files marked as outside the run (added when they were not uncommitted yet). */
export function withOwnOutput(before: PreexistingChanges, files: readonly string[]): PreexistingChanges {
  const marked = before.map((p) => (files.includes(p.path) ? { ...p, outside: true as const } : p));
  for (const path of files) if (!before.some((p) => p.path === path)) marked.push({ path, oid: null, mode: 0, outside: true });
  return marked;
}

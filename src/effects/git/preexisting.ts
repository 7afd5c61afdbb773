import { join } from "node:path";
import { PreexistingChanges } from "../../schema/preexisting.ts";
import { changedFiles, type FileChange } from "./changes.ts";
import { lstatFile, worktreeBlob } from "./head-tree.ts";

/**
 * Uncommitted files that were already in the working tree when a run started: the path and
 * its content then (blob id and mode; null oid = deleted). A run commits only its own
 * changes, so a file still in exactly this state at commit time is left out of the commit
 * and stays in the working tree as the user left it.
 */
export { PreexistingChanges };

export async function snapshotUncommitted(root: string): Promise<PreexistingChanges> {
  return (await changedFiles(root)).map((c) => ({ path: c.path, ...contentOf(root, c.path) }));
}

function contentOf(root: string, path: string): { oid: string | null; mode: number } {
  const st = lstatFile(join(root, path));
  if (!st) return { oid: null, mode: 0 };
  const b = worktreeBlob(join(root, path), st);
  return { oid: b.oid, mode: b.mode };
}

/** The changes a run made itself: `changes` minus files still exactly as they were at its start. */
export function runOwnChanges(root: string, changes: FileChange[], before: PreexistingChanges): { own: FileChange[]; untouched: string[] } {
  const then = new Map(before.map((p) => [p.path, p]));
  const own: FileChange[] = [];
  const untouched: string[] = [];
  for (const c of changes) {
    const p = then.get(c.path);
    const now = p ? contentOf(root, c.path) : null;
    if (p?.outside || (p && now && now.oid === p.oid && (p.oid === null || now.mode === p.mode))) untouched.push(c.path);
    else own.push(c);
  }
  return { own, untouched };
}

/** The run's own changes still uncommitted in `root` (after its commit: the files the user left out of it). */
export async function uncommittedRunChanges(root: string, before: PreexistingChanges): Promise<string[]> {
  return runOwnChanges(root, await changedFiles(root), before).own.map((c) => c.path);
}

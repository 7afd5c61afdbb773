import { resolve, sep } from "node:path";
import { listWorktrees, mainCheckout } from "../effects/git/worktree-list.ts";
import { pruneWorktrees } from "../effects/git/worktree.ts";
import { listSessions } from "../session/list.ts";

/**
 * The worktrees every session of the repository refers to — the sessions of the main checkout
 * and of each linked worktree, since a run started anywhere in the repository creates its
 * worktree under the main checkout's `<repo>-worktrees/`.
 */
export async function sessionWorktrees(repoDir: string): Promise<string[]> {
  const main = await mainCheckout(repoDir);
  const checkouts = listWorktrees(main).filter((w) => !w.missing).map((w) => w.path);
  const out: string[] = [];
  for (const checkout of new Set([main, ...checkouts])) {
    for (const s of await listSessions(checkout).catch(() => [])) if (s.state?.worktree_path) out.push(s.state.worktree_path);
  }
  return out;
}

/**
 * Worktrees under <repo>-worktrees/ that no session refers to are removed — except any with
 * uncommitted work or commits on no other branch, and the one the user is standing in, which
 * are reported and kept.
 */
export async function pruneOrphanWorktrees(projectDir: string, out: (l: string) => void, cwd = process.cwd()): Promise<void> {
  const here = resolve(cwd);
  const report = await pruneWorktrees(projectDir, await sessionWorktrees(projectDir), {
    protect: (path) => (here === path || here.startsWith(path + sep) ? "you are in it" : null),
  });
  for (const p of report.removed) out(`agentmux: removed the orphaned worktree ${p}`);
  for (const k of report.kept) out(`agentmux: kept the orphaned worktree ${k.path}: ${k.reason}`);
}

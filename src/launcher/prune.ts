import { resolve, sep } from "node:path";
import { phaseEnded } from "../schema/catalog.ts";
import { listWorktrees, mainCheckout } from "../effects/git/worktree-list.ts";
import { pruneWorktrees } from "../effects/git/worktree.ts";
import { listSessions, type SessionSummary } from "../session/list.ts";

/**
 * The worktrees every session of the repository refers to — the sessions of the main checkout
 * and of each linked worktree, since a run started anywhere in the repository creates its
 * worktree under the main checkout's `<repo>-worktrees/`.
 */
export async function sessionWorktrees(repoDir: string): Promise<string[]> {
  return (await repositorySessions(repoDir)).map((s) => s.state?.worktree_path).filter((p): p is string => !!p);
}

/** The sessions of every checkout of the repository: the main one and each linked worktree. */
export async function repositorySessions(repoDir: string): Promise<SessionSummary[]> {
  const main = await mainCheckout(repoDir);
  const checkouts = listWorktrees(main)
    .filter((w) => !w.missing)
    .map((w) => w.path);
  const out: SessionSummary[] = [];
  for (const checkout of new Set([main, ...checkouts])) out.push(...(await listSessions(checkout).catch(() => [])));
  return out;
}

/**
 * AGENTMUX_PORT_OFFSET for a new run: 10, 20, … — the first not held by a live run of the
 * repository (or by one created in the last two minutes that is still starting).
 */
export async function freePortOffset(repoDir: string, now = Date.now()): Promise<number> {
  const used = new Set<number>();
  for (const s of await repositorySessions(repoDir)) {
    const st = s.state;
    if (st?.port_offset === undefined) continue;
    const starting = now - Date.parse(st.created_at ?? "") < 120_000 && !phaseEnded(st.phase);
    if (s.live || starting) used.add(st.port_offset);
  }
  for (let n = 1; ; n++) if (!used.has(n * 10)) return n * 10;
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

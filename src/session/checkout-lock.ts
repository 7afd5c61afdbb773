import { lstatSync, rmSync } from "node:fs";
import { breakStaleLock, readLockText } from "./stale-lock.ts";
import { CheckoutLockUnusable } from "./errors.ts";
import { join } from "node:path";
import { z } from "zod";
import { createComplete, writeFileAtomic } from "../effects/fs/atomic.ts";
import { readRegularFile } from "../effects/fs/read-regular.ts";
import { parseJsonText } from "./syntax.ts";
import { liveOrchestrator, ownPidRecord, recordAlive } from "./liveness.ts";
import { sessionId } from "../protocol/paths.ts";
import { gitDirs } from "../effects/git/dirs.ts";

/**
 * A run owns the checkout it works in: `agentmux-checkout.lock` in the checkout's own git dir
 * (`.git/`, or a linked worktree's) names the session, and the launcher that took it (pid + start token). The lock is held while that
 * launcher or the session's orchestrator runs — a crashed pair leaves a stale lock, which the
 * next run breaks. Runs in their own worktree never take it.
 */
const Holder = z.object({ session: z.string(), dir: z.string(), pid: z.number().int(), start: z.string().optional(), at: z.string() });
export type CheckoutHolder = z.infer<typeof Holder>;

/** Per checkout, out of the working tree and out of the session list. */
export const checkoutLockPath = (projectDir: string) => join(gitDirs(projectDir).gitdir, "agentmux-checkout.lock");

function readHolder(path: string): CheckoutHolder | null {
  const read = readRegularFile(path, 64 * 1024);
  const parsed = read.ok ? parseJsonText(read.text) : null;
  const r = parsed?.ok ? Holder.safeParse(parsed.data) : null;
  return r?.success ? r.data : null;
}

/**
 * The holder still runs: its launcher, or the session's orchestrator it handed the run to. A
 * record without a start token (an older agentmux's) counts only when that pid runs agentmux:
 * a pid the system gave to another program since must not keep the checkout forever.
 */
export function holderAlive(h: CheckoutHolder): boolean {
  return recordAlive({ pid: h.pid, start: h.start || undefined }, "agentmux") || liveOrchestrator(h.dir) !== null;
}

/** The live run that holds the checkout, if any. */
export function checkoutHolder(projectDir: string): CheckoutHolder | null {
  const h = readHolder(checkoutLockPath(projectDir));
  return h && holderAlive(h) ? h : null;
}

/**
 * Take the checkout for the session in `sessionDir`. Returns the other live run when it holds
 * it. Creation is atomic (a complete file is hard-linked into place); a stale lock is moved
 * aside and checked before it is deleted, so two runs breaking it at once cannot both win.
 */
export function acquireCheckout(projectDir: string, sessionDir: string): { ok: true } | { ok: false; holder: CheckoutHolder } {
  const path = checkoutLockPath(projectDir);
  const me = ownPidRecord();
  const text = JSON.stringify({ session: sessionId(sessionDir), dir: sessionDir, pid: me.pid, start: me.start, at: new Date().toISOString() }) + "\n";
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createComplete(path, text)) return { ok: true };
    const kind = entryKind(path);
    if (kind !== "file" && kind !== "missing") throw new CheckoutLockUnusable({ path, kind });
    const seen = readLockText(path);
    const holder = seen === null ? null : readHolder(path);
    if (holder?.dir === sessionDir) {
      writeFileAtomic(path, text); // this session's own lock (a resume): renew it
      return { ok: true };
    }
    if (holder && holderAlive(holder)) return { ok: false, holder };
    if (seen !== null) breakStaleLock(path, seen);
  }
  // never go on without holding it: five tries lost to runs breaking and taking it meanwhile
  const holder = readHolder(path);
  if (holder) return { ok: false, holder };
  throw new CheckoutLockUnusable({ path, kind: "busy" });
}

function entryKind(path: string): "file" | "missing" | "folder" | "other" {
  try {
    const st = lstatSync(path);
    return st.isFile() ? "file" : st.isDirectory() ? "folder" : "other";
  } catch {
    return "missing";
  }
}

/** Give the checkout up (only when this session holds it). */
export function releaseCheckout(projectDir: string, sessionDir: string): void {
  const path = checkoutLockPath(projectDir);
  if (readHolder(path)?.dir === sessionDir) rmSync(path, { force: true });
}

import { readdirSync, readFileSync } from "node:fs";
import { statFields } from "./identity.ts";

/** Every process's parent, by pid: Linux reads /proc, elsewhere `ps` answers. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  let entries: string[] | null = null;
  try {
    entries = readdirSync("/proc");
  } catch {
    /* no /proc on this system */
  }
  if (entries?.includes("self")) {
    for (const name of entries) {
      if (!/^\d+$/.test(name)) continue;
      try {
        out.set(Number(name), Number(statFields(readFileSync(`/proc/${name}/stat`, "utf8"))[1]));
      } catch {
        /* gone in between */
      }
    }
    return out;
  }
  const ps = Bun.spawnSync(["ps", "-A", "-o", "pid=,ppid="], { stdout: "pipe", stderr: "ignore" });
  for (const line of ps.stdout.toString().split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)/.exec(line);
    if (m) out.set(Number(m[1]), Number(m[2]));
  }
  return out;
}

/**
 * Whether `pid` is `root` or a process below it, by walking up its parents (Linux /proc; a few
 * reads, where `descendants` reads every process). False when a process on the way is gone.
 */
export function isAtOrBelow(pid: number, root: number): boolean {
  for (let p = pid, hops = 0; p > 0 && hops < 64; hops++) {
    if (p === root) return true;
    try {
      p = Number(statFields(readFileSync(`/proc/${p}/stat`, "utf8"))[1]);
    } catch {
      return false;
    }
  }
  return false;
}

/** The processes below `root` (not `root` itself), parents before their children. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const out: number[] = [];
  for (let i = -1; i < out.length; i++) for (const c of children.get(i < 0 ? root : out[i]!) ?? []) out.push(c);
  return out;
}

/**
 * Stop (SIGSTOP) or continue (SIGCONT) everything running under a pane's own process, never that
 * process itself. tmux answers a stop of a pane's process (its direct child) by continuing the
 * pane's whole process group at once; it never learns of a grandchild's stop, so the agent's CLI
 * and its tools stay stopped while the pane's shell waits for them. A stop is repeated for
 * processes forked while it was under way. Returns how many processes were signalled; a process
 * that exits in between is skipped. Throws (ESRCH) when `root` itself is gone.
 */
export function signalBelow(root: number, signal: "SIGSTOP" | "SIGCONT"): number {
  return signalledBelow(root, signal).length;
}

/** signalBelow, returning the pids it signalled. */
export function signalledBelow(root: number, signal: "SIGSTOP" | "SIGCONT"): number[] {
  process.kill(root, 0);
  const done = new Set<number>();
  for (let pass = 0; pass < 5; pass++) {
    const fresh = descendants(root).filter((p) => !done.has(p));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      done.add(pid);
      try {
        process.kill(pid, signal);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
      }
    }
    if (signal === "SIGCONT") break;
  }
  return [...done];
}

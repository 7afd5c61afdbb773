import { readFileSync } from "node:fs";

/**
 * Who a pid is right now: its start time (a token that differs when the pid is reused), whether
 * it is a zombie (dead, not yet reaped: kill(pid, 0) still succeeds) and its command line.
 * Linux reads /proc; elsewhere `ps` answers.
 */
export type ProcessIdentity = { pid: number; start: string; zombie: boolean; cmdline: string };

/**
 * The fields of a /proc/<pid>/stat line after the command name (field 3 on: state, parent, …).
 * The name (field 2) is in parentheses and may hold spaces or ")": split after the last ")".
 */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

function fromProc(pid: number): ProcessIdentity | null | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (e) {
    // no such pid (null), or no /proc on this system (undefined: ask `ps`)
    return (e as NodeJS.ErrnoException).code === "ENOENT" && existsProcFs() ? null : undefined;
  }
  const fields = statFields(stat);
  let cmdline = "";
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").replace(/\0/g, " ");
  } catch {
    /* gone in between, or a zombie (empty) */
  }
  return { pid, start: fields[19] ?? "", zombie: fields[0] === "Z" || fields[0] === "X", cmdline };
}

let procFs: boolean | undefined;
function existsProcFs(): boolean {
  if (procFs === undefined) {
    try {
      readFileSync("/proc/self/stat");
      procFs = true;
    } catch {
      procFs = false;
    }
  }
  return procFs;
}

/** `ps` (systems without /proc, e.g. macOS). */
export function identityFromPs(pid: number): ProcessIdentity | null {
  const p = Bun.spawnSync(["ps", "-o", "stat=,lstart=,command=", "-p", String(pid)], { stdout: "pipe", stderr: "ignore" });
  const line = p.stdout.toString().trim();
  const m = /^(\S+)\s+(\S+\s+\S+\s+\d+\s+[\d:]+\s+\d+)\s*(.*)$/.exec(line);
  if (p.exitCode !== 0 || !m) return null;
  return { pid, start: m[2]!.replace(/\s+/g, " "), zombie: m[1]!.startsWith("Z"), cmdline: m[3] ?? "" };
}

/** The identity of `pid`, or null when no such process exists. */
export function processIdentity(pid: number): ProcessIdentity | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const proc = fromProc(pid);
  return proc === undefined ? identityFromPs(pid) : proc;
}

/** This process's start token (recorded next to its pid so a reused pid is told apart). */
export function ownStartToken(): string {
  return processIdentity(process.pid)?.start ?? "";
}

/**
 * True when `pid` runs and is the same process as recorded: not a zombie, the same start token
 * (when one was recorded) and, for a record without one, a command line containing `needle`.
 */
export function sameProcessAlive(pid: number, o: { start?: string; needle?: string }): boolean {
  const id = processIdentity(pid);
  if (!id || id.zombie) return false;
  if (o.start) return id.start === o.start;
  return o.needle === undefined || id.cmdline.includes(o.needle);
}

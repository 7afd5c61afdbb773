import { spawn, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import type { Readable } from "node:stream";
import { CappedLog, DEFAULT_LOG_CAPS, type LogCaps } from "./capped-log.ts";
import { killGroup } from "./group.ts";
import { childEnv, type EnvPolicy } from "./run.ts";

/**
 * Every command agentmux runs for the user (worktree setup, checks) goes through here
 * (DESIGN.md rule 15): its own process group, done when the process exits (not when the pipes
 * close: a background `db-start &` keeps them open), the whole group killed on timeout (TERM,
 * then KILL), output streamed to a capped log with the tail kept.
 */
export type BoundedCommand = EnvPolicy & {
  argv: string[];
  cwd: string;
  timeoutMs: number;
  logPath: string;
  caps?: LogCaps;
  /** lines of `tail` (default 40) */
  tailLines?: number;
  /** after the command exits, what its group still runs: `kill` it (checks), or `detach` it (setup that starts a service) */
  leftovers: "kill" | "detach";
  /** TERM → KILL grace (default 2000 ms) */
  graceMs?: number;
  /** written to its stdin, which is then closed (default: no stdin) */
  stdin?: string;
  /** aborted: its whole group is killed now (TERM, then KILL), as at the timeout (the run ends) */
  abort?: AbortSignal;
  /** told the group's leader pid once it started (a caller that must find the group after its own crash records it) */
  onStart?: (pid: number) => void;
};

export type BoundedResult = {
  /** null when a signal ended it, it timed out or never started */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** why it could not start (cwd missing, spawn failed) */
  spawnError: string | null;
  durationMs: number;
  startedAt: string;
  finishedAt: string;
  /** the output was larger than the log's caps */
  truncated: boolean;
  bytes: number;
  tail: string[];
  /** why its log file holds less than the output (a full or read-only disk, named), or null */
  logProblem: string | null;
};

export type BoundedRunner = (cmd: BoundedCommand) => Promise<BoundedResult>;

/** How long output already in the pipes is still read after the process exits. */
const DRAIN_MS = 300;

export const runBounded: BoundedRunner = async (cmd) => {
  const log = new CappedLog(cmd.logPath, cmd.caps ?? DEFAULT_LOG_CAPS);
  const started = Date.now();
  const finish = (r: Pick<BoundedResult, "exitCode" | "signal" | "timedOut" | "spawnError">): BoundedResult => {
    const closed = log.close(cmd.tailLines ?? 40);
    const ended = Date.now();
    return {
      ...r,
      durationMs: ended - started,
      startedAt: new Date(started).toISOString(),
      finishedAt: new Date(ended).toISOString(),
      truncated: closed.dropped > 0,
      bytes: closed.bytes,
      tail: closed.tail,
      logProblem: closed.problem,
    };
  };
  if (!isFolder(cmd.cwd)) return finish({ exitCode: null, signal: null, timedOut: false, spawnError: `its working folder ${cmd.cwd} does not exist` });
  let child: ChildProcess;
  try {
    // one pipe for stdout and stderr, so the log has them in the order they were written
    child = spawn("sh", ["-c", 'exec 2>&1; exec "$@"', "sh", ...cmd.argv], {
      cwd: cmd.cwd,
      env: childEnv(cmd),
      detached: true,
      stdio: [cmd.stdin === undefined ? "ignore" : "pipe", "pipe", "ignore"],
    });
    if (cmd.stdin !== undefined && child.stdin) {
      // a command that does not read its input (or exits first) is not an error
      child.stdin.on("error", () => {});
      child.stdin.end(cmd.stdin);
    }
  } catch (e) {
    return finish({ exitCode: null, signal: null, timedOut: false, spawnError: (e as Error).message });
  }
  if (child.pid) cmd.onStart?.(child.pid);
  const streams = [child.stdout, child.stderr].filter((s): s is Readable => s !== null);
  for (const s of streams) s.on("data", (d: Buffer) => log.write(d));
  const outcome = await new Promise<{ code: number | null; signal: string | null; timedOut: boolean; error: string | null }>((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) void killGroup(child.pid, cmd.graceMs ?? 2000);
    }, cmd.timeoutMs);
    const abort = () => {
      if (child.pid) void killGroup(child.pid, cmd.graceMs ?? 2000);
    };
    if (cmd.abort?.aborted) abort();
    else cmd.abort?.addEventListener("abort", abort, { once: true });
    child.once("error", (e) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, timedOut: false, error: e.message });
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      cmd.abort?.removeEventListener("abort", abort);
      resolve({ code: timedOut ? null : code, signal, timedOut, error: null });
    });
  });
  if (outcome.error) return finish({ exitCode: null, signal: null, timedOut: false, spawnError: outcome.error });
  const pid = child.pid!;
  if (cmd.leftovers === "kill" || outcome.timedOut) await killGroup(pid, cmd.graceMs ?? 2000);
  await drained(streams, DRAIN_MS);
  // a detached leftover may still hold the pipes: keep reading them (into nothing) without holding this process open
  for (const s of streams) {
    s.removeAllListeners("data");
    s.on("data", () => {});
    (s as Readable & { unref?: () => void }).unref?.();
  }
  child.unref();
  return finish({ exitCode: outcome.code, signal: outcome.signal, timedOut: outcome.timedOut, spawnError: null });
};

/** Resolves when every stream has ended, or after `ms`. */
function drained(streams: Readable[], ms: number): Promise<void> {
  const ends = streams.map((s) => (s.readableEnded || s.destroyed ? Promise.resolve() : new Promise<void>((r) => s.once("close", () => r()))));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<void>((r) => (timer = setTimeout(r, ms)));
  return Promise.race([Promise.all(ends).then(() => undefined), cap]).finally(() => clearTimeout(timer));
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

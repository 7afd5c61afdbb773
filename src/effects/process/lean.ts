import { isCompiled, selfCommand } from "./self.ts";

/** Bun reads JSC options from BUN_JSC_* variables as the process starts, and only then. */
export const JIT_VAR = "BUN_JSC_useJIT";
/** Set to the pid for the restarted image only: it knows it is the restart (execve keeps the pid). */
const RESTARTED_VAR = "AGENTMUX_LEAN";

/**
 * How lean a long-lived process runs (#15.2):
 * - `interpreter`: no JIT at all, for a process that mostly waits (the monitor, the stdio MCP
 *   bridge of one agent): the JIT tiers cost about 14 MB of RSS each (measured at idle: monitor
 *   70 → 56 MB, mcp-server 57 → 48 MB) and buy nothing for a program that redraws a few lines.
 * - `hot-only`: code is compiled only once it is truly hot (a million executions instead of
 *   a few hundred), for the launcher and the orchestrator. Most of their code runs a few times
 *   (start-up, each phase), and compiling it is what costs memory: measured on a demo with five
 *   live agents, the orchestrator 94 → 72 MB and the launcher 85 → 71 MB, with less CPU over a
 *   run (3.2 → 2.2 s), while hot loops still get the optimizing tiers (replaying 100k tool
 *   events 1550 → 1750 ms; without any JIT it took 5.6 s, a 20k-file commit twice as long).
 */
export type Leanness = "interpreter" | "hot-only";
export const LEAN_OPTIONS: Record<Leanness, Record<string, string>> = {
  interpreter: { [JIT_VAR]: "0" },
  "hot-only": { BUN_JSC_thresholdForJITAfterWarmUp: "1000000", BUN_JSC_thresholdForJITSoon: "1000000" },
};

/** The mark of a process started lean by its parent (leanSpawnEnv): it has no restart to make. */
const SPAWNED = "spawned";

/**
 * The environment that starts a child lean at once, for a child that must not restart itself:
 * execve closes every descriptor but stdio (measured: Bun marks them close-on-exec), and the
 * orchestrator reports its result to the launcher on fd 3. The child takes the options out of
 * its environment again (restartLean). Empty from source, or when the user set any option.
 */
export function leanSpawnEnv(
  leanness: Leanness,
  env: Record<string, string | undefined> = process.env,
  compiled: boolean = isCompiled(),
): Record<string, string> {
  const options = LEAN_OPTIONS[leanness];
  if ((leanness === "hot-only" && !compiled) || Object.keys(options).some((k) => env[k] !== undefined)) return {};
  return { ...options, [RESTARTED_VAR]: SPAWNED };
}

/**
 * The process replaces itself once (execve: same pid, terminal, pane and stdio; every other
 * descriptor closes, so this comes before the process opens any) with
 * the JSC options of `leanness` set, before it has done anything. The restarted image takes the
 * options out of its environment again, so that what it starts (an agent CLI built on bun,
 * another agentmux) runs as it would have. Nothing happens when the user set any of the
 * options; where execve fails the process goes on as it is. `hot-only` applies to the compiled
 * binary only: from source, a restart would cost a second transpile per process, and memory
 * there is not what users run.
 */
export function restartLean(
  args: readonly string[],
  leanness: Leanness,
  env: Record<string, string | undefined> = process.env,
  pid: number = process.pid,
  exec: ((file: string, argv: string[], env: Record<string, string>) => void) | undefined = process.execve,
  compiled: boolean = isCompiled(),
): void {
  const options = LEAN_OPTIONS[leanness];
  if (leanness === "hot-only" && !compiled) return;
  if (env[RESTARTED_VAR] === String(pid) || env[RESTARTED_VAR] === SPAWNED) {
    delete env[RESTARTED_VAR];
    for (const k of Object.keys(options)) delete env[k];
    return;
  }
  if (Object.keys(options).some((k) => env[k] !== undefined) || !exec) return;
  const self = selfCommand();
  try {
    exec(self[0]!, [...self, ...args], { ...env, ...options, [RESTARTED_VAR]: String(pid) } as Record<string, string>);
  } catch {
    // no execve here: the same program, only larger
  }
}

import { selfCommand } from "./self.ts";

/** JSC's switch for its JIT tiers; Bun reads JSC options from BUN_JSC_* variables at start. */
export const JIT_VAR = "BUN_JSC_useJIT";

/**
 * A long-lived process that mostly waits (the monitor) runs on JSC's interpreter: the JIT tiers
 * cost about 15 MB of RSS per process (measured: monitor 69 → 55 MB at idle) and buy nothing for
 * a program that redraws a few lines when a file changes (#15.2). JSC reads the option only as
 * it starts, so the process replaces itself once (execve: same pid, terminal and tmux pane) with
 * the option set, before it has done anything. Nothing happens when the option is set already
 * (by that restart, or by the user); where execve fails the process goes on with its JIT.
 */
export function restartWithoutJit(args: readonly string[]): void {
  if (process.env[JIT_VAR] !== undefined) return;
  const self = selfCommand();
  try {
    process.execve?.(self[0]!, [...self, ...args], { ...process.env, [JIT_VAR]: "0" } as Record<string, string>);
  } catch {
    // no execve here: the same program, only larger
  }
}

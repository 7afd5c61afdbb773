import { selfCommand } from "./self.ts";

/** JSC's switch for its JIT tiers; Bun reads JSC options from BUN_JSC_* variables as it starts. */
export const JIT_VAR = "BUN_JSC_useJIT";
/** Set to the pid for the restarted image only: it knows it is the restart (execve keeps the pid). */
const RESTARTED_VAR = "AGENTMUX_INTERPRETED";

/**
 * A long-lived process that mostly waits (the monitor, the stdio MCP server of one agent) runs
 * on JSC's interpreter: the JIT tiers cost about 14 MB of RSS per process (measured at idle:
 * monitor 70 → 56 MB, mcp-server 57 → 48 MB) and buy nothing for a program that redraws a few
 * lines or answers a tool call now and then (#15.2). Not for the orchestrator: replaying a long
 * run's events takes 6–7× as long on the interpreter.
 *
 * JSC reads the option only as it starts, so the process replaces itself once (execve: same pid,
 * terminal, pane and stdio) with the option set, before it has done anything. The restarted
 * image takes the option out of its environment again, so that what it starts (an agent CLI
 * built on bun, another agentmux) gets its JIT. Nothing happens when the user set the option;
 * where execve fails the process goes on with its JIT.
 */
export function restartWithoutJit(
  args: readonly string[],
  env: Record<string, string | undefined> = process.env,
  pid: number = process.pid,
  exec: ((file: string, argv: string[], env: Record<string, string>) => void) | undefined = process.execve,
): void {
  if (env[RESTARTED_VAR] === String(pid)) {
    delete env[RESTARTED_VAR];
    delete env[JIT_VAR];
    return;
  }
  if (env[JIT_VAR] !== undefined || !exec) return;
  const self = selfCommand();
  try {
    exec(self[0]!, [...self, ...args], { ...env, [JIT_VAR]: "0", [RESTARTED_VAR]: String(pid) } as Record<string, string>);
  } catch {
    // no execve here: the same program, only larger
  }
}

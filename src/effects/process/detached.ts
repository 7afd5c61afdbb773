import { spawn, type ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import { childEnv, type EnvPolicy } from "./run.ts";

export type Detached = {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** everything the child wrote to its result pipe (fd 3), once the pipe closes; "" without one */
  result: Promise<string>;
};

/**
 * Start a process in its own session (it survives the terminal that started it): no stdin,
 * stdout and stderr appended to `outputFile`, and with `resultPipe` a pipe on fd 3 for a
 * final report. Neither the child nor its pipe keeps this process alive.
 */
export function spawnDetached(argv: string[], opts: EnvPolicy & { cwd: string; outputFile: string; resultPipe?: boolean }): Detached {
  const out = openSync(opts.outputFile, "a");
  const child = spawn(argv[0]!, argv.slice(1), {
    detached: true,
    stdio: opts.resultPipe ? ["ignore", out, out, "pipe"] : ["ignore", out, out],
    cwd: opts.cwd,
    env: childEnv(opts),
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.on("exit", (code, signal) => r({ code, signal })));
  const pipe = opts.resultPipe ? (child.stdio[3] as (NodeJS.ReadableStream & { unref?: () => void }) | null) : null;
  let text = "";
  pipe?.on("data", (d: Buffer) => (text += d.toString()));
  const result = new Promise<string>((r) => {
    if (pipe) pipe.on("close", () => r(text));
    else void exited.then(() => r(text));
  });
  child.unref();
  pipe?.unref?.();
  return { child, exited, result };
}

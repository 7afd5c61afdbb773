export type ExecResult = { code: number; stdout: string; stderr: string; timedOut?: boolean };
export type Exec = (argv: string[], opts: { timeoutMs: number; env: Record<string, string> }) => Promise<ExecResult>;

/** Runs a command with a timeout; never throws for a failing or missing program. */
export const spawnExec: Exec = async (argv, opts) => {
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, ...opts.env } });
  } catch (e) {
    return { code: 127, stdout: "", stderr: (e as Error).message };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A hung CLI (or a child of it holding the pipes) must not hang doctor: race the timeout.
  const timeout = new Promise<ExecResult>((resolve) => {
    timer = setTimeout(() => {
      proc.kill("SIGKILL");
      resolve({ code: 124, stdout: "", stderr: "", timedOut: true });
    }, opts.timeoutMs);
  });
  const done = Promise.all([
    new Response(proc.stdout as ReadableStream).text(),
    new Response(proc.stderr as ReadableStream).text(),
    proc.exited,
  ]).then(([stdout, stderr, code]): ExecResult => ({ code, stdout, stderr }));
  const result = await Promise.race([done, timeout]);
  clearTimeout(timer);
  return result;
};

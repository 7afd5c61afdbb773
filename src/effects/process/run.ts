/**
 * The one way agentmux starts a child process: tmux, git, gh, the agent CLIs doctor asks for
 * their version, and agentmux itself (the orchestrator, the home screen's next command).
 * Each call says its argv, cwd, environment policy, stdin and timeout; a failing or missing
 * program is a result (exit 127 when it cannot start), never an exception.
 */
export type ProcResult = { code: number; stdout: string; stderr: string; timedOut?: boolean };

export type EnvPolicy = {
  /** layered over the inherited environment; `undefined` removes a variable */
  env?: Record<string, string | undefined>;
  /** start from an empty environment instead of this process's */
  cleanEnv?: boolean;
};

export type ProcOptions = EnvPolicy & {
  cwd?: string;
  /** text written to the child's stdin (default: no stdin) */
  stdin?: string;
  /** SIGKILL the child after this long; the result then has code 124 and `timedOut` */
  timeoutMs?: number;
};

/** A process runner; tests inject fakes, production uses runProcess. */
export type Runner = (argv: string[], opts?: ProcOptions) => Promise<ProcResult>;

/** The environment a child gets under a policy. */
export function childEnv(policy: EnvPolicy = {}): Record<string, string> {
  const out: Record<string, string> = {};
  const layers = policy.cleanEnv ? [policy.env ?? {}] : [process.env, policy.env ?? {}];
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer)) {
      if (v === undefined) delete out[k];
      else out[k] = v;
    }
  }
  return out;
}

/** Run to completion, collecting stdout and stderr. */
export const runProcess: Runner = async (argv, opts = {}) => {
  let proc: Bun.Subprocess<"ignore" | Blob, "pipe", "pipe">;
  try {
    proc = Bun.spawn(argv, {
      cwd: opts.cwd,
      env: childEnv(opts),
      stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (e) {
    return { code: 127, stdout: "", stderr: `${argv[0]}: ${(e as Error).message}` };
  }
  const done = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]).then(([stdout, stderr, code]): ProcResult => ({
    code,
    stdout,
    stderr,
  }));
  if (opts.timeoutMs === undefined) return done;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A hung program (or a child of it holding the pipes) must not hang the caller: race the timeout.
  const timeout = new Promise<ProcResult>((resolve) => {
    timer = setTimeout(() => {
      proc.kill("SIGKILL");
      resolve({ code: 124, stdout: "", stderr: "", timedOut: true });
    }, opts.timeoutMs);
  });
  const result = await Promise.race([done, timeout]);
  clearTimeout(timer);
  return result;
};

/** Give this terminal to a program (stdin, stdout, stderr inherited) until it exits; its exit code. */
export async function runInTerminal(argv: string[], policy: EnvPolicy & { cwd?: string } = {}): Promise<number> {
  const child = Bun.spawn(argv, { cwd: policy.cwd, stdio: ["inherit", "inherit", "inherit"], env: childEnv(policy) });
  return child.exited;
}

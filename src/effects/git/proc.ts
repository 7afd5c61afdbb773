/** Child processes for git and gh: never throw for a non-zero exit or a missing program. */
export type ProcResult = { code: number; stdout: string; stderr: string };
export type ProcOptions = { cwd?: string; env?: Record<string, string | undefined>; stdin?: string };
/** Injectable process runner (tests swap it; the default spawns for real). */
export type Runner = (argv: string[], opts?: ProcOptions) => Promise<ProcResult>;

export const spawnRunner: Runner = async (argv, opts = {}) => {
  let p;
  try {
    p = Bun.spawn(argv, {
      cwd: opts.cwd,
      env: cleanEnv({ ...process.env, ...opts.env }),
      stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (e) {
    return { code: 127, stdout: "", stderr: `${argv[0]}: ${(e as Error).message}` };
  }
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
};

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** Environment for git children: never prompt for credentials on a terminal. */
export const GIT_ENV = { GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" };

let gitCliCache: boolean | undefined;

/**
 * True when a `git` executable is on PATH. `AGENTMUX_NO_GIT_CLI=1` forces the
 * isomorphic-git paths (tests use it to check both implementations agree).
 */
export function gitCliAvailable(): boolean {
  if (process.env.AGENTMUX_NO_GIT_CLI === "1") return false;
  if (gitCliCache === undefined) gitCliCache = Bun.which("git") !== null;
  return gitCliCache;
}

/** Run `git <args>` in `cwd` with the non-interactive environment. */
export function runGit(cwd: string, args: string[], run: Runner = spawnRunner): Promise<ProcResult> {
  return run(["git", ...args], { cwd, env: GIT_ENV });
}

/** The first line of a failure, for messages. */
export function firstError(r: ProcResult): string {
  const text = (r.stderr.trim() || r.stdout.trim() || `exit ${r.code}`).split("\n").filter(Boolean);
  return text.slice(-3).join(" ").replace(/\s+/g, " ").slice(0, 400);
}

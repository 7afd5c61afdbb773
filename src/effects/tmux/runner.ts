import { AgentmuxError } from "../../errors.ts";

export type TmuxResult = { code: number; stdout: string; stderr: string };

/** The environment for tmux children: never inherit TMUX (nested tmux would target the user's server). */
function tmuxEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "TMUX" && k !== "TMUX_PANE") env[k] = v;
  return env;
}

/**
 * The one way agentmux talks to tmux: every call adds `-L <socket>` and drops TMUX from the
 * child environment. Failures become AgentmuxError("tmux") naming the subcommand and stderr.
 */
export class Tmux {
  constructor(readonly socket: string) {}

  argv(args: string[]): string[] {
    return ["tmux", "-L", this.socket, ...args];
  }

  /** Run and return the raw result; never throws for a non-zero exit. */
  async exec(args: string[], stdin?: string): Promise<TmuxResult> {
    const p = Bun.spawn(this.argv(args), {
      stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
      stdout: "pipe",
      stderr: "pipe",
      env: tmuxEnv(),
    });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, stdout, stderr };
  }

  /** Run and return stdout (trailing newline trimmed); throws AgentmuxError on failure. */
  async run(args: string[], stdin?: string): Promise<string> {
    const r = await this.exec(args, stdin);
    if (r.code !== 0) throw this.failure(args, r);
    return r.stdout.replace(/\n$/, "");
  }

  execSync(args: string[]): TmuxResult {
    const p = Bun.spawnSync(this.argv(args), { stdout: "pipe", stderr: "pipe", env: tmuxEnv() });
    return { code: p.exitCode ?? 1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
  }

  async hasSession(name: string): Promise<boolean> {
    return (await this.exec(["has-session", "-t", `=${name}`])).code === 0;
  }

  /** The command a user types to look at a session. */
  attachCommand(name: string): string {
    return `tmux -L ${this.socket} attach -t ${name}`;
  }

  failure(args: string[], r: TmuxResult): AgentmuxError {
    const err = r.stderr.trim().replace(/\s+/g, " ") || `exit ${r.code}`;
    return new AgentmuxError("tmux", `tmux ${args[0]} failed: ${err}`, { where: `tmux -L ${this.socket} ${args.join(" ")}`.slice(0, 300) });
  }
}

/** The socket from the environment (tests) or config. */
export function tmuxSocket(configured: string): string {
  return process.env.AGENTMUX_TMUX_SOCKET || configured;
}

import { defineError, type AgentmuxError } from "../../errors.ts";
import { socketNameProblem } from "../../schema/tmux-names.ts";
import { runProcess, type EnvPolicy } from "../process/run.ts";
import { controlLine, TmuxControl } from "./control.ts";
import { tmuxFailure, type TmuxFailureData } from "./errors.ts";

export type TmuxResult = { code: number; stdout: string; stderr: string };

/** tmux children never inherit TMUX: a nested tmux would target the user's server. */
export const TMUX_ENV: EnvPolicy = { env: { TMUX: undefined, TMUX_PANE: undefined } };

/**
 * The one way agentmux talks to a tmux server: every call adds `-u -L <socket>`, runs through
 * the process runner without TMUX in the environment, and a failure becomes the named error
 * its stderr means (errors.ts). Only src/effects/tmux/ builds the argument lists
 * (test/architecture/tmux-argv.test.ts); everything else calls the typed operations.
 */
export class Tmux {
  #control: TmuxControl | null = null;

  constructor(readonly socket: string) {}

  /**
   * From now on, send what a control-mode line can carry through one tmux client attached to
   * `session` (control.ts) instead of a process per call; false when tmux refused the client
   * (calls then go on as processes). A lost client falls back the same way. Open it once: tmux
   * 3.3a's server can crash when one control client detaches as another attaches.
   */
  async useControlClient(session: string, onLost?: () => void): Promise<boolean> {
    this.#control?.close();
    this.#control = await TmuxControl.open((a) => this.argv(a), TMUX_ENV, session);
    if (this.#control && onLost) this.#control.onLost = onLost;
    return this.#control !== null;
  }

  /** Detach the control client, if any. */
  closeControlClient(): void {
    this.#control?.close();
    this.#control = null;
  }

  argv(args: string[]): string[] {
    // -u: without a UTF-8 locale (no LANG: container jobs, cron, env -i) tmux would print the
    // control character separating -F columns as "_" and every format parse would fail
    return ["tmux", "-u", "-L", this.socket, ...args];
  }

  /** Run and return the raw result; never throws for a non-zero exit. */
  async exec(args: string[], stdin?: string): Promise<TmuxResult> {
    const line = this.#control?.alive && stdin === undefined ? controlLine(args) : null;
    if (line !== null) return this.#control!.request(line);
    const r = await runProcess(this.argv(args), { ...TMUX_ENV, stdin });
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  }

  /** Run and return stdout (trailing newline trimmed); throws the classified error on failure. */
  async run(args: string[], stdin?: string): Promise<string> {
    const r = await this.exec(args, stdin);
    if (r.code !== 0) throw this.failure(args, r);
    return r.stdout.replace(/\n$/, "");
  }

  async hasSession(name: string): Promise<boolean> {
    return (await this.exec(["has-session", "-t", `=${name}`])).code === 0;
  }

  /** The command a user types to look at a session (optionally with one pane selected). */
  attachCommand(name: string, opts: { pane?: string } = {}): string {
    const attach = `tmux -L ${this.socket} attach -t ${name}`;
    return opts.pane ? `${attach} \\; select-pane -t ${opts.pane}` : attach;
  }

  /** How doctor asks this tmux for its version. */
  versionArgv(): string[] {
    return this.argv(["-V"]);
  }

  failure(args: string[], r: TmuxResult): AgentmuxError & { data: TmuxFailureData } {
    return tmuxFailure({ socket: this.socket, args, code: r.code, stderr: r.stderr });
  }
}

/** The socket from the environment (tests) or config; a name that is not a plain socket name is refused. */
export function tmuxSocket(configured: string): string {
  const name = process.env.AGENTMUX_TMUX_SOCKET || configured;
  const problem = socketNameProblem(name);
  if (problem) throw new BadSocketName({ name, source: process.env.AGENTMUX_TMUX_SOCKET ? "AGENTMUX_TMUX_SOCKET" : "tmux.socket", problem });
  return name;
}

export const BadSocketName = defineError("BadSocketName", "config", (d: { name: string; source: string; problem: string }) => ({
  message: `${JSON.stringify(d.name)} is not a tmux socket name: it ${d.problem}`,
  where: d.source,
  hint: "use a plain name such as agentmux or agentmux-ci",
}));

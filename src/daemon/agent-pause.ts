import { signalledBelow } from "../effects/process/tree.ts";
import type { Logger } from "../effects/log.ts";
import { PauseGuard } from "./pause-guard.ts";
import { Later, toCome, type Outcome } from "./outcome.ts";

type Held = () => Promise<void>;

/**
 * The run paused at its budget: the agents' CLIs stopped (SIGSTOP), and the launches and
 * deliveries asked for meanwhile held, to be made in order when the run goes on.
 */
export class AgentPause {
  #paused = false;
  #held: Held[] = [];
  /** continues the stopped CLIs should this orchestrator die while the run is paused */
  readonly #guard: PauseGuard;

  constructor(
    sessionDir: string,
    private readonly log: Logger,
  ) {
    this.#guard = new PauseGuard(sessionDir);
  }

  get paused(): boolean {
    return this.#paused;
  }

  /**
   * While paused, keep `run` for when the run goes on: its outcome is then the events still to
   * come of what it does (null when not paused: run it now).
   */
  hold(run: () => Promise<Outcome> | Outcome): Outcome | null {
    if (!this.#paused) return null;
    const later = new Later();
    this.#held.push(async () => {
      try {
        later.follow(await run());
      } catch (e) {
        later.end();
        this.log(`what was held while the run was paused failed when it went on: ${(e as Error).message}`, { level: "warn" });
      }
    });
    return toCome(later);
  }

  /**
   * Stop or continue every agent's CLI (agent → its pane's pid); continued, what was held is
   * made now, in order (a held prompt goes to the pane its held launch makes).
   */
  pauseAll(stop: boolean, agents: [string, { pid: number }][]): void {
    this.#paused = stop;
    for (const [agent, v] of agents) this.signal(agent, v.pid, stop);
    const held = stop ? [] : this.#continued();
    this.log(`${stop ? "paused" : "continued"} ${agents.length} agent(s)${held.length ? `; ${held.length} held launch(es) and prompt(s) now` : ""}`, {
      event: stop ? "agents_paused" : "agents_continued",
      data: { agents: agents.map(([agent]) => agent), ...(stop ? {} : { held: held.length }) },
    });
    if (stop) return;
    void (async () => {
      for (const run of held) await run();
    })();
  }

  /** The run goes on (every CLI continued): what was held, in order, to make now. */
  #continued(): Held[] {
    this.#guard.continued();
    return this.#held.splice(0);
  }

  /**
   * SIGSTOP or SIGCONT the agent's CLI and everything it runs: the processes below the pane's own
   * shell, never the shell (tmux would continue it and its group at once); false, logged, when it
   * failed.
   */
  signal(agent: string, pid: number, stop: boolean): boolean {
    try {
      const pids = signalledBelow(pid, stop ? "SIGSTOP" : "SIGCONT");
      if (stop) this.#guard.stopped(pids);
      return true;
    } catch (e) {
      this.log(`could not ${stop ? "pause" : "continue"} ${agent} (pid ${pid}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, {
        level: "warn",
        event: stop ? "agents_paused" : "agents_continued",
        agent,
        error: (e as Error).message,
      });
      return false;
    }
  }
}

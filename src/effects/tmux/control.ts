import { spawnPiped, type Piped } from "../process/piped.ts";
import type { EnvPolicy } from "../process/run.ts";
import type { TmuxResult } from "./runner.ts";

/**
 * One long-lived tmux client in control mode (`tmux -C`), so that a call costs a line on a pipe
 * instead of a process: the orchestrator talks to tmux hundreds of times a minute (the turn
 * watcher, delivery checks, layout), and a tmux process per call cost as much CPU as the run.
 *
 * Protocol (tmux(1) CONTROL MODE): each command line is answered by one block per command it
 * ran, `%begin <time> <number> <flags>` … `%end|%error` with the same three words; lines outside
 * a block are notifications and are ignored. A chain stops at its first failing command, so a
 * request cannot know how many blocks it gets: each request line is followed by a marker
 * command whose block closes it.
 */

/** Commands that end or move clients, or block: always run by a tmux process of their own. */
const SPAWN_ONLY = new Set([
  "kill-server",
  "kill-session",
  "new-session",
  "new",
  "attach-session",
  "attach",
  "detach-client",
  "detach",
  "switch-client",
  "switchc",
  "wait-for",
  "wait",
  "start-server",
  "start",
]);

/**
 * The control-mode line for an argument list, or null when it must go through a tmux process:
 * a newline cannot be sent on a line; an argument ending in ";" means a command separator to
 * tmux's argv parsing but not inside quotes; and a few commands must not run on this client.
 */
export function controlLine(args: string[]): string | null {
  let commandStart = true;
  const words: string[] = [];
  for (const a of args) {
    if (a === ";") {
      commandStart = true;
      words.push(";");
      continue;
    }
    if (/[\n\r]/.test(a) || a.endsWith(";")) return null;
    // a leading flag is a server option (-f, -V): a client of its own
    if (commandStart && (SPAWN_ONLY.has(a) || a.startsWith("-"))) return null;
    commandStart = false;
    // single quotes are literal in tmux's parser; a quote itself is closed, escaped, reopened
    words.push(`'${a.replace(/'/g, `'\\''`)}'`);
  }
  return words.length ? words.join(" ") : null;
}

type Request = { marker: string; stdout: string; stderr: string | null; resolve: (r: TmuxResult) => void };

/** What a lost client answers for a request it could not finish (classified as a lost server). */
const LOST = "lost server: the tmux control client exited";

export class TmuxControl {
  readonly #queue: Request[] = [];
  #block: { guard: string; client: boolean; lines: string[] } | null = null;
  #alive = true;
  #closed = false;
  #seq = 0;
  /** told once when the client goes without close() (the session or the server gone, tmux killed) */
  onLost: () => void = () => {};

  private constructor(private readonly proc: Piped) {
    void this.#read();
    void proc.exited.then(() => this.#lost());
  }

  /**
   * Attach a control client to `session` (not counted for window sizes, no pane output), or
   * null when tmux refuses (no such session, a tmux without control mode).
   */
  static async open(argv: (args: string[]) => string[], policy: EnvPolicy, session: string): Promise<TmuxControl | null> {
    const proc = spawnPiped(argv(["-C", "attach-session", "-t", `=${session}`, "-f", "ignore-size,no-output"]), policy);
    if (!proc) return null;
    const control = new TmuxControl(proc);
    // the first answer proves the client is attached and answering
    const probe = await control.request("display-message -p ok");
    if (probe.code !== 0) {
      control.close();
      return null;
    }
    return control;
  }

  get alive(): boolean {
    return this.#alive;
  }

  /** Send one command line (see controlLine) and wait for its answer. */
  request(line: string): Promise<TmuxResult> {
    if (!this.#alive) return Promise.resolve({ code: 1, stdout: "", stderr: LOST });
    const marker = `@@amx-ctl-${++this.#seq}@@`;
    return new Promise((resolve) => {
      this.#queue.push({ marker, stdout: "", stderr: null, resolve });
      if (!this.proc.write(`${line}\ndisplay-message -p '${marker}'\n`)) this.#lost();
    });
  }

  /** Detach (EOF on the client's input ends it). */
  close(): void {
    this.#closed = true;
    this.#alive = false;
    this.proc.end();
    this.#fail();
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    let rest = "";
    try {
      for await (const chunk of this.proc.stdout) {
        const text = rest + decoder.decode(chunk, { stream: true });
        let start = 0;
        for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
          this.#line(text.slice(start, nl));
          start = nl + 1;
        }
        rest = text.slice(start);
      }
    } catch {
      /* the pipe broke: the exit handler fails what is waiting */
    }
    this.#lost();
  }

  #line(line: string): void {
    const b = this.#block;
    if (!b) {
      if (line.startsWith("%begin ")) {
        const guard = line.slice(7);
        this.#block = { guard, client: guard.endsWith(" 1"), lines: [] };
      } else if (line === "%exit" || line.startsWith("%exit ")) this.#alive = false;
      return;
    }
    // only a closing line with the opening's own words ends the block (a pane may print "%end …")
    const ok = line === `%end ${b.guard}`;
    if (!ok && line !== `%error ${b.guard}`) {
      b.lines.push(line);
      return;
    }
    this.#block = null;
    if (!b.client) return; // the attach's own block
    const head = this.#queue[0];
    if (!head) return;
    if (ok && b.lines.length === 1 && b.lines[0] === head.marker) {
      this.#queue.shift();
      head.resolve(head.stderr === null ? { code: 0, stdout: head.stdout, stderr: "" } : { code: 1, stdout: head.stdout, stderr: head.stderr });
      return;
    }
    const text = b.lines.map((l) => `${l}\n`).join("");
    if (ok) head.stdout += text;
    else head.stderr = (head.stderr ?? "") + text;
  }

  #lost(): void {
    if (!this.#closed) {
      this.#closed = true;
      this.onLost();
    }
    this.#alive = false;
    this.#fail();
  }

  /** The requests not answered when the client went: whether they ran is unknown, so they failed. */
  #fail(): void {
    for (const r of this.#queue.splice(0)) r.resolve({ code: 1, stdout: r.stdout, stderr: r.stderr ?? LOST });
  }
}

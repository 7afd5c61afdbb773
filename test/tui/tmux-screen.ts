import { afterEach } from "bun:test";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { killTmuxServer, privateSocket } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

export { isolatedBinary } from "../helpers/tmp.ts";

/** A program in a fresh window of a private tmux server, read through capture-pane. */
export class Screen {
  readonly tmux: Tmux;
  constructor(readonly socket: string) {
    this.tmux = new Tmux(socket);
  }

  /** Start `argv` in cwd with TERM=xterm-256color; the pane stays open after exit and shows the code. */
  async start(argv: string[], cwd: string, size = { width: 100, height: 30 }, env: Record<string, string> = {}): Promise<void> {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const envs = Object.entries({ TERM: "xterm-256color", ...env })
      .map(([k, v]) => `${k}=${q(v)}`)
      .join(" ");
    const cmd = `cd ${q(cwd)} && env ${envs} ${argv.map(q).join(" ")}; echo "EXIT=$?"; sleep 600`;
    await this.tmux.run(["new-session", "-d", "-s", "t", "-x", String(size.width), "-y", String(size.height), cmd]);
  }

  capture(): Promise<string> {
    return this.tmux.run(["capture-pane", "-p", "-t", "t"]);
  }

  async keys(...keys: string[]): Promise<void> {
    await this.tmux.run(["send-keys", "-t", "t", ...keys]);
  }

  async type(text: string): Promise<void> {
    await this.tmux.run(["send-keys", "-t", "t", "-l", text]);
  }

  /** Wait until the screen matches; returns the capture. */
  until(what: string, test: (screen: string) => boolean, timeoutMs = 10000): Promise<string> {
    return waitFor(
      what,
      async () => {
        const s = await this.capture();
        return test(s) ? s : undefined;
      },
      { timeoutMs },
    );
  }
}

/**
 * A test file's binary and screens: `screen()` is a Screen on a private tmux server of its own,
 * killed after each test; `dirs` are removed after the file (the binary's scope).
 */
export function screensScope(): { readonly bin: string; dirs: string[]; screen(): Screen } {
  const scope = binaryScope();
  let sockets: string[] = [];
  afterEach(() => {
    sockets.forEach(killTmuxServer);
    sockets = [];
  });
  return {
    get bin() {
      return scope.bin;
    },
    dirs: scope.dirs,
    screen() {
      sockets.push(privateSocket());
      return new Screen(sockets.at(-1)!);
    },
  };
}

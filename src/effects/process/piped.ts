import { childEnv, type EnvPolicy } from "./run.ts";

/** A long-lived child spoken to over its stdin and stdout (stderr discarded). */
export type Piped = {
  /** write text and flush it; false when the pipe is closed */
  write(text: string): boolean;
  /** close stdin (the child sees end of input) */
  end(): void;
  /** stdout, as it arrives */
  stdout: ReadableStream<Uint8Array>;
  exited: Promise<number>;
};

/**
 * Start a child that answers on its stdout what it is told on its stdin, or null when it cannot
 * start. It does not keep this process alive.
 */
export function spawnPiped(argv: string[], policy: EnvPolicy = {}): Piped | null {
  let proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  try {
    proc = Bun.spawn(argv, { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: childEnv(policy) });
  } catch {
    return null;
  }
  proc.unref();
  return {
    write(text) {
      try {
        proc.stdin.write(text);
        proc.stdin.flush();
        return true;
      } catch {
        return false;
      }
    },
    end() {
      try {
        proc.stdin.end();
      } catch {
        /* already closed */
      }
    },
    stdout: proc.stdout,
    exited: proc.exited,
  };
}

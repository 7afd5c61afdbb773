import { defineError } from "../errors.ts";

export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP";
const STOP_SIGNALS: StopSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** A stop signal arrived while the run was being set up: nothing was started, nothing kept. */
export const StartInterrupted = defineError(
  "StartInterrupted",
  "session",
  (d: { signal: StopSignal }) => ({ message: `stopped by ${d.signal} while the run was starting; nothing was kept` }),
  { exitCode: 130 },
);

/**
 * The launcher's stop signals (Ctrl-C, `kill`, a closed terminal or CI runner) from the first
 * step of a run: a signal during setup stops the setup cleanly (`checkpoint()` throws), and a
 * headless follower turns it into a cancel request. Without this trap, bun would die at once
 * and leave the orchestrator and agents running.
 */
export class StopSignals {
  received: StopSignal | null = null;
  private readonly listeners: ((s: StopSignal) => void)[] = [];
  private readonly handler = (s: StopSignal) => {
    this.received ??= s;
    for (const l of this.listeners) l(s);
  };

  constructor() {
    for (const s of STOP_SIGNALS) process.on(s, this.handler);
  }

  /** Call `fn` for every stop signal from now on (and at once for one already received). */
  onSignal(fn: (s: StopSignal) => void): void {
    this.listeners.push(fn);
    if (this.received) fn(this.received);
  }

  /** Throws StartInterrupted when a stop signal arrived. */
  checkpoint(): void {
    if (this.received) throw new StartInterrupted({ signal: this.received });
  }

  /** Back to the default behaviour (an attached terminal: a closed terminal ends the launcher only). */
  dispose(): void {
    for (const s of STOP_SIGNALS) process.off(s, this.handler);
    this.listeners.length = 0;
  }
}

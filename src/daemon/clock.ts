/**
 * Time as the daemon's policies see it: what time it is and timers. The orchestrator passes the
 * system clock; unit tests pass a clock they move by hand (test/helpers/fake-clock.ts), so a
 * policy measured in seconds is tested in microseconds.
 */
export type Clock = {
  now(): number;
  /** call `fn` every `ms` until stopped */
  every(ms: number, fn: () => void): { stop(): void };
};

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    return { stop: () => clearInterval(timer) };
  },
};

export const isoAt = (clock: Clock): string => new Date(clock.now()).toISOString();

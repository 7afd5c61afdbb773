/**
 * Time as the daemon's policies (turn detection, delivery, the watchdog) see it: what time it is and timers. The orchestrator passes the
 * system clock; unit tests pass a clock they move by hand (test/helpers/fake-clock.ts), so a
 * policy measured in seconds is tested in microseconds.
 */
export type Clock = {
  now(): number;
  /** call `fn` every `ms` until stopped */
  every(ms: number, fn: () => void): { stop(): void };
  /** call `fn` once, `ms` from now, unless stopped before */
  after(ms: number, fn: () => void): { stop(): void };
  /** resolves `ms` from now */
  sleep(ms: number): Promise<void>;
};

const timers = {
  every(ms: number, fn: () => void) {
    const timer = setInterval(fn, ms);
    return { stop: () => clearInterval(timer) };
  },
  after(ms: number, fn: () => void) {
    const timer = setTimeout(fn, ms);
    return { stop: () => clearTimeout(timer) };
  },
  sleep: (ms: number) => Bun.sleep(ms),
};

/** Wall time (Date.now()): deadlines that count across restarts, timestamps in events. */
export const systemClock: Clock = { now: () => Date.now(), ...timers };

/**
 * Monotonic time (performance.now()): durations within one daemon, such as how long a screen has
 * been still, compared with the other performance.now() readings the daemon hands around (the
 * last tool call, a turn's end).
 */
export const monotonicClock: Clock = { now: () => performance.now(), ...timers };

export const isoAt = (clock: Clock): string => new Date(clock.now()).toISOString();

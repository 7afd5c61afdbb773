import type { Clock } from "../../src/effects/clock.ts";

type Timer = { every: number | null; due: number; fn: () => void };

/** A clock that moves only when told: `advance(ms)` runs every timer due on the way, in order. */
export class FakeClock implements Clock {
  #now: number;
  #timers = new Set<Timer>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  every(ms: number, fn: () => void): { stop(): void } {
    return this.#add({ every: ms, due: this.#now + ms, fn });
  }

  after(ms: number, fn: () => void): { stop(): void } {
    return this.#add({ every: null, due: this.#now + Math.max(0, ms), fn });
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => void this.after(ms, resolve));
  }

  #add(t: Timer): { stop(): void } {
    this.#timers.add(t);
    return { stop: () => void this.#timers.delete(t) };
  }

  get timers(): number {
    return this.#timers.size;
  }

  /** Move time forward by `ms`, firing each timer at each of its due times on the way. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const next = [...this.#timers].filter((t) => t.due <= end).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.#now = next.due;
      if (next.every === null) this.#timers.delete(next);
      else next.due += next.every;
      next.fn();
    }
    this.#now = end;
  }
}

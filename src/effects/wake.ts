/**
 * One timer that calls `fire` at the earliest time asked for: asking for a later time while an
 * earlier one is due changes nothing, asking for an earlier one moves it. Times are on `now`'s
 * clock (performance.now() unless given), and so is the timer when `after` is given (a fake clock's).
 */
export class EarliestWake {
  #due: { at: number; timer: { stop(): void } } | null = null;

  constructor(
    private readonly fire: () => void,
    private readonly now: () => number = () => performance.now(),
    private readonly after: (ms: number, fn: () => void) => { stop(): void } = (ms, fn) => {
      const timer = setTimeout(fn, ms);
      return { stop: () => clearTimeout(timer) };
    },
  ) {}

  at(at: number): void {
    if (this.#due && this.#due.at <= at) return;
    this.#due?.timer.stop();
    const timer = this.after(Math.max(0, at - this.now()), () => {
      this.#due = null;
      this.fire();
    });
    this.#due = { at, timer };
  }

  cancel(): void {
    this.#due?.timer.stop();
    this.#due = null;
  }
}

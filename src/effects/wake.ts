/**
 * One timer that calls `fire` at the earliest time asked for: asking for a later time while an
 * earlier one is due changes nothing, asking for an earlier one moves it. Times are on `now`'s
 * clock (performance.now() unless given).
 */
export class EarliestWake {
  #due: { at: number; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(
    private readonly fire: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  at(at: number): void {
    if (this.#due && this.#due.at <= at) return;
    if (this.#due) clearTimeout(this.#due.timer);
    const timer = setTimeout(() => {
      this.#due = null;
      this.fire();
    }, Math.max(0, at - this.now()));
    this.#due = { at, timer };
  }

  cancel(): void {
    if (this.#due) clearTimeout(this.#due.timer);
    this.#due = null;
  }
}

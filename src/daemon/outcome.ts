import type { Event } from "../schema/events.ts";

/**
 * What interpreting one effect produced (interpret.ts), the one way an effect's outcomes come
 * back to the loop: the events it produced by the time it returned (a commit's result, a launch's
 * conversation), and the events of work that goes on after it returned (a delivery's verdict, a
 * check batch's results, a launch held while the run is paused). Nothing that interprets an
 * effect holds a way into the loop; the loop feeds both into its event intake.
 */
export type Outcome = { events: Event[]; later?: Later };

/** An effect that produced no event (a file written, a pane shown). */
export const nothing = (): Outcome => ({ events: [] });

/** Events produced now. */
export const produced = (...events: Event[]): Outcome => ({ events });

/** Events still to come, from a stream its producer fills. */
export const toCome = (later: Later): Outcome => ({ events: [], later });

/**
 * Events still to come, in the order their producer puts them; it ends once, when the producer
 * is done (a put after the end is dropped). Read by one reader.
 */
export class Later implements AsyncIterable<Event> {
  readonly #queue: Event[] = [];
  #ended = false;
  #wake: (() => void) | null = null;

  put(e: Event): void {
    if (this.#ended) return;
    this.#queue.push(e);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  /** The outcome's events now and its later ones as they come; this stream ends after them. */
  follow(o: Outcome): void {
    for (const e of o.events) this.put(e);
    if (!o.later) return this.end();
    const later = o.later;
    void (async () => {
      for await (const e of later) this.put(e);
      this.end();
    })();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Event> {
    for (;;) {
      const e = this.#queue.shift();
      if (e) yield e;
      else if (this.#ended) return;
      else {
        await new Promise<void>((r) => (this.#wake = r));
        this.#wake = null;
      }
    }
  }
}

/**
 * A stream filled by `work` (which puts events as they happen); it ends when the work settles.
 * The work never throws into the stream: a failure is the producer's to report (`failed`).
 */
export function laterFrom(work: (put: (e: Event) => void) => Promise<void>, failed: (e: unknown) => void): Later {
  const later = new Later();
  void work((e) => later.put(e))
    .catch(failed)
    .finally(() => later.end());
  return later;
}

/** Every event of an outcome, the later ones once they all came (tests, the bench). */
export async function allEvents(o: Outcome): Promise<Event[]> {
  const out = [...o.events];
  if (o.later) for await (const e of o.later) out.push(e);
  return out;
}

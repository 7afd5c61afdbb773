import { z } from "zod";

export const TopicStatus = z.enum(["dispatched", "done"]);
export type TopicStatus = z.infer<typeof TopicStatus>;

/** A topic's status and its place in the order topics were added. */
type Entry = { readonly status: TopicStatus; readonly order: number };

/**
 * How a version reaches its entries: it holds the one map its versions share (the version used
 * last), or it is one change away from a newer version (`entry`: the topic's entry in this
 * version, undefined when it has none).
 */
type Link = Holder | Change;
type Holder = { map: Map<string, Entry> };
type Change = { topic: string; entry: Entry | undefined; newer: TopicTasks };

/** An order-free digest term of one topic: the digest of a map is the sum of its topics' terms. */
function term(topic: string, status: TopicStatus): number {
  let h = status === "done" ? 0x811c9dc5 : 0x01000193;
  for (let i = 0; i < topic.length; i++) h = Math.imul(h ^ topic.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * state.json's `research_tasks` / `web_research_tasks` (topic → status) in memory: an immutable
 * map whose versions share one mutable Map. The version used last holds the Map; every other
 * version holds the one change that leads from it to a newer version. A change of the newest
 * version costs O(1) (a plain record was copied whole: a run with thousands of topics replayed
 * event by event was quadratic), and so does a lookup in it; using an older version first moves
 * the Map back to it, undoing the changes between them (Baker's rerooting). Transitions use the
 * newest version, so the loop never pays for that.
 * It is written and shown as the plain record, in the order topics were added (`toJSON`), and
 * the schema (`TopicTasksField`) reads that record back into a TopicTasks.
 *
 * `size` and `digest` (a sum of a hash per topic and status) are its only enumerable fields, so
 * a deep equality (a test's toEqual) compares two maps by their content, not by their history.
 * Its private fields change when another version is used: freezing the object does not stop
 * that, and no observer can see it.
 */
export class TopicTasks {
  static readonly EMPTY = new TopicTasks({ map: new Map() }, 0, 0, 0, 0);

  #link: Link;
  /** the order of the next topic added */
  readonly #next: number;
  readonly #dispatched: number;

  private constructor(link: Link, next: number, dispatched: number, readonly size: number, readonly digest: number) {
    this.#link = link;
    this.#next = next;
    this.#dispatched = dispatched;
  }

  /** The map of a plain record (state.json's form), in the record's order. */
  static of(record: Readonly<Record<string, TopicStatus>>): TopicTasks {
    const map = new Map<string, Entry>();
    let digest = 0;
    let dispatched = 0;
    for (const [topic, status] of Object.entries(record)) {
      map.set(topic, { status, order: map.size });
      digest = (digest + term(topic, status)) >>> 0;
      if (status === "dispatched") dispatched++;
    }
    return map.size ? new TopicTasks({ map }, map.size, dispatched, map.size, digest) : TopicTasks.EMPTY;
  }

  get(topic: string): TopicStatus | undefined {
    return this.#map().get(topic)?.status;
  }

  /** Whether any topic has `status`. */
  hasStatus(status: TopicStatus): boolean {
    return (status === "dispatched" ? this.#dispatched : this.size - this.#dispatched) > 0;
  }

  /** The map with `topic` set to `status`: a new topic goes last, a known one keeps its place. */
  with(topic: string, status: TopicStatus): TopicTasks {
    const had = this.#map().get(topic);
    if (had?.status === status) return this;
    const digest = (this.digest - (had ? term(topic, had.status) : 0) + term(topic, status)) >>> 0;
    const dispatched = this.#dispatched - (had?.status === "dispatched" ? 1 : 0) + (status === "dispatched" ? 1 : 0);
    const entry = { status, order: had ? had.order : this.#next };
    return this.#change(topic, had, entry, had ? this.#next : this.#next + 1, dispatched, had ? this.size : this.size + 1, digest);
  }

  /** The map without `topic` (added again later, it goes last). */
  without(topic: string): TopicTasks {
    const had = this.#map().get(topic);
    if (!had) return this;
    const dispatched = this.#dispatched - (had.status === "dispatched" ? 1 : 0);
    return this.#change(topic, had, undefined, this.#next, dispatched, this.size - 1, (this.digest - term(topic, had.status)) >>> 0);
  }

  /** [topic, status] as Object.entries gives them from the record (toJSON). */
  entries(): [string, TopicStatus][] {
    return Object.entries(this.toJSON());
  }

  /** The plain record state.json holds, keys in the order topics were added (as a record spread keeps them). */
  toJSON(): Record<string, TopicStatus> {
    let entries: Iterable<[string, Entry]> = this.#map();
    let last = -1;
    for (const [, e] of entries) {
      if (e.order < last) {
        // a topic removed and put back by undoing changes went to the Map's end: order by `order`
        entries = [...entries].sort((a, b) => a[1].order - b[1].order);
        break;
      }
      last = e.order;
    }
    const out: Record<string, TopicStatus> = {};
    for (const [topic, e] of entries) out[topic] = e.status;
    return out;
  }

  /** The newer version with `topic`'s entry changed from `had` to `entry` (undefined: removed); this one becomes the change back. */
  #change(topic: string, had: Entry | undefined, entry: Entry | undefined, next: number, dispatched: number, size: number, digest: number): TopicTasks {
    // the empty map is shared by every run of the process: a change never writes its Map
    const map = this.size === 0 ? new Map<string, Entry>() : this.#map();
    const newer = new TopicTasks({ map }, next, dispatched, size, digest);
    if (entry) map.set(topic, entry);
    else map.delete(topic);
    if (this.size !== 0) this.#link = { topic, entry: had, newer };
    return newer;
  }

  /** The shared Map as this version sees it: moved here first when a newer version holds it. */
  #map(): Map<string, Entry> {
    const link = this.#link;
    if ("map" in link) return link.map;
    const chain: TopicTasks[] = [];
    let holder: TopicTasks = this;
    let l: Link = link;
    while (!("map" in l)) {
      chain.push(holder);
      holder = l.newer;
      l = holder.#link;
    }
    const map = l.map;
    // from the version next to the holder back to this one: undo each change, hand the Map over
    for (let i = chain.length - 1; i >= 0; i--) {
      const older = chain[i]!;
      const step = older.#link as Change;
      const current = map.get(step.topic);
      if (step.entry) map.set(step.topic, step.entry);
      else map.delete(step.topic);
      step.newer.#link = { topic: step.topic, entry: current, newer: older };
      older.#link = { map };
    }
    return map;
  }
}

const TopicRecord = z.record(z.string(), TopicStatus);
const { $schema: _drop, ...recordJsonSchema } = z.toJSONSchema(TopicRecord);

/**
 * The record in state.json, a TopicTasks in memory (a TopicTasks given to be written is checked
 * as its record). Its JSON Schema (docs/protocol.md) is the record's: that is the file's format.
 */
export const TopicTasksField = z
  .preprocess((v) => (v instanceof TopicTasks ? v.toJSON() : v), TopicRecord)
  .transform((r) => TopicTasks.of(r))
  .meta(recordJsonSchema);

import { z } from "zod";

export const TopicStatus = z.enum(["dispatched", "done"]);
export type TopicStatus = z.infer<typeof TopicStatus>;

/** A topic's status and its place in the order topics were added. */
type Entry = { readonly status: TopicStatus; readonly order: number };

/** An order-free digest term of one topic: the digest of a map is the sum of its topics' terms. */
function term(topic: string, status: TopicStatus): number {
  let h = status === "done" ? 0x811c9dc5 : 0x01000193;
  for (let i = 0; i < topic.length; i++) h = Math.imul(h ^ topic.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * state.json's `research_tasks` / `web_research_tasks` (topic → status) in memory: an immutable
 * map whose versions share their entries. A transition that adds or finishes a topic copies
 * only the recent changes (at most about √n of them; then they are merged into a new base),
 * where a plain record was copied whole: a run with thousands of topics replayed event by event
 * was quadratic. It is written and shown as the plain record, in the order topics were added
 * (`toJSON`), and the schema (`TopicTasksField`) reads that record back into a TopicTasks.
 *
 * `size` and `digest` (a sum of a hash per topic and status) are its only enumerable fields, so
 * a deep equality (a test's toEqual) compares two maps by their content, not by how their
 * versions happen to share entries.
 */
export class TopicTasks {
  static readonly EMPTY = new TopicTasks(new Map(), new Map(), 0, 0, 0);

  readonly #base: ReadonlyMap<string, Entry>;
  /** changes since `base`: an entry, or null for a topic removed */
  readonly #recent: ReadonlyMap<string, Entry | null>;
  readonly #next: number;

  private constructor(base: ReadonlyMap<string, Entry>, recent: ReadonlyMap<string, Entry | null>, next: number, readonly size: number, readonly digest: number) {
    this.#base = base;
    this.#recent = recent;
    this.#next = next;
  }

  /** The map of a plain record (state.json's form), in the record's order. */
  static of(record: Readonly<Record<string, TopicStatus>>): TopicTasks {
    const base = new Map<string, Entry>();
    let digest = 0;
    for (const [topic, status] of Object.entries(record)) {
      base.set(topic, { status, order: base.size });
      digest = (digest + term(topic, status)) >>> 0;
    }
    return base.size ? new TopicTasks(base, new Map(), base.size, base.size, digest) : TopicTasks.EMPTY;
  }

  get(topic: string): TopicStatus | undefined {
    return this.#entry(topic)?.status;
  }

  /** Whether any topic has `status`. */
  hasStatus(status: TopicStatus): boolean {
    return this.#merged().some(([, e]) => e.status === status);
  }

  /** The map with `topic` set to `status`: a new topic goes last, a known one keeps its place. */
  with(topic: string, status: TopicStatus): TopicTasks {
    const had = this.#entry(topic);
    if (had?.status === status) return this;
    const recent = new Map(this.#recent).set(topic, { status, order: had ? had.order : this.#next });
    const digest = (this.digest - (had ? term(topic, had.status) : 0) + term(topic, status)) >>> 0;
    return this.#derive(recent, had ? this.#next : this.#next + 1, had ? this.size : this.size + 1, digest);
  }

  /** The map without `topic` (added again later, it goes last). */
  without(topic: string): TopicTasks {
    const had = this.#entry(topic);
    if (!had) return this;
    const recent = new Map(this.#recent).set(topic, null);
    return this.#derive(recent, this.#next, this.size - 1, (this.digest - term(topic, had.status)) >>> 0);
  }

  /** [topic, status] as Object.entries gives them from the record (toJSON). */
  entries(): [string, TopicStatus][] {
    return Object.entries(this.toJSON());
  }

  /** The plain record state.json holds, keys in the order topics were added (as a record spread keeps them). */
  toJSON(): Record<string, TopicStatus> {
    const out: Record<string, TopicStatus> = {};
    for (const [topic, e] of this.#merged()) out[topic] = e.status;
    return out;
  }

  #entry(topic: string): Entry | undefined {
    const r = this.#recent.get(topic);
    return r === undefined ? this.#base.get(topic) : (r ?? undefined);
  }

  #derive(recent: Map<string, Entry | null>, next: number, size: number, digest: number): TopicTasks {
    const t = new TopicTasks(this.#base, recent, next, size, digest);
    // merge once the changes outgrow √n: each change then copies O(√n), each merge O(n) every √n changes
    return recent.size > Math.max(16, Math.sqrt(size)) ? new TopicTasks(new Map(t.#merged()), new Map(), next, size, digest) : t;
  }

  /** Every live entry, in order: the base's (changed or not) and then the topics added since, by their order. */
  #merged(): [string, Entry][] {
    const out: [string, Entry][] = [];
    for (const [topic, e] of this.#base) {
      const r = this.#recent.get(topic);
      if (r === undefined) out.push([topic, e]);
      else if (r && r.order === e.order) out.push([topic, r]);
    }
    const added: [string, Entry][] = [];
    for (const [topic, r] of this.#recent) if (r && this.#base.get(topic)?.order !== r.order) added.push([topic, r]);
    added.sort((a, b) => a[1].order - b[1].order);
    return added.length ? out.concat(added) : out;
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

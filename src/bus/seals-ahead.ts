import { checkSeal, SEAL_HEAD, SEAL_LEN, type SealKey } from "./tool-seal.ts";

/**
 * A line's seal verdict: from the seal thread when it got there first, else checked here.
 * `key` is the key the verdict belongs to (a caller with another key checks the line itself).
 */
export type SealCheck = { readonly key: SealKey; valid(text: string): boolean };

/** Below this many bytes a second thread is not worth its start. */
export const SEALS_AHEAD_MIN_BYTES = 1 << 20;

// The seal thread's program, run from a Blob: a file of its own would need its own entry in the
// compiled binary. It reads the shared chunk the way readToolLines does (complete lines only,
// trimmed of ASCII white space, empty ones skipped; the chunk is ASCII) and checks each line as
// checkSeal does. Verdicts: 0 not yet, 1 refused, 2 valid.
const PROGRAM = `
self.onmessage = (m) => {
  const { key, bytes, offset, length, verdicts, head, sealLen } = m.data;
  const buf = new Uint8Array(bytes, offset, length);
  const out = new Uint8Array(verdicts);
  const keyed = new Bun.CryptoHasher("sha256", key);
  const close = new Uint8Array([125]);
  const headBytes = Array.from(head, (c) => c.charCodeAt(0));
  const ws = (c) => c === 32 || (c >= 9 && c <= 13);
  let start = 0, j = 0;
  for (let nl = buf.indexOf(10); nl !== -1 && j < out.length; nl = buf.indexOf(10, start)) {
    let s = start, e = nl;
    start = nl + 1;
    while (s < e && ws(buf[s])) s++;
    while (e > s && ws(buf[e - 1])) e--;
    if (s === e) continue;
    const at = s + (e - s) - sealLen;
    let ok = at >= s + 1 && buf[e - 2] === 34 && buf[e - 1] === 125;
    for (let k = 0; ok && k < headBytes.length; k++) ok = buf[at + k] === headBytes[k];
    if (ok) {
      const mac = keyed.copy().update(buf.subarray(s, at)).update(close).digest("hex");
      const hex = at + headBytes.length;
      for (let k = 0; ok && k < 64; k++) ok = buf[hex + k] === mac.charCodeAt(k);
    }
    Atomics.store(out, j++, ok ? 2 : 1);
  }
  self.close();
};`;

let programUrl: string | undefined;

/**
 * The seal checks of a chunk of tool_events.jsonl, done on a second thread while the caller
 * parses and applies its lines (each HMAC costs about as much as the line's JSON.parse). The
 * caller never waits for the thread: a line it reaches first it checks itself, so a verdict is
 * always checkSeal's, whether the thread started, is behind, or died.
 */
export class SealsAhead {
  readonly #verdicts: Uint8Array;

  private constructor(
    readonly key: SealKey,
    verdicts: SharedArrayBuffer,
  ) {
    this.#verdicts = new Uint8Array(verdicts);
  }

  /**
   * Start checking the complete lines of `chunk` (ASCII, in shared memory) on a second thread;
   * null when no thread can be started (each line is then checked by its reader).
   */
  static start(key: SealKey, chunk: Buffer): SealsAhead | null {
    if (!(chunk.buffer instanceof SharedArrayBuffer)) return null;
    try {
      programUrl ??= URL.createObjectURL(new Blob([PROGRAM], { type: "application/javascript" }));
      // room for as many lines as sealed lines fit in the chunk; lines beyond it are checked by their reader
      const verdicts = new SharedArrayBuffer(Math.ceil(chunk.length / SEAL_LEN) + 1);
      const worker = new Worker(programUrl);
      worker.unref();
      worker.postMessage({ key: new Uint8Array(key), bytes: chunk.buffer, offset: chunk.byteOffset, length: chunk.length, verdicts, head: SEAL_HEAD, sealLen: SEAL_LEN });
      return new SealsAhead(key, verdicts);
    } catch {
      return null;
    }
  }

  /** Line `i`'s check (the i-th non-empty line of the chunk, whose text is `text`). */
  check(i: number): SealCheck {
    return new LineSeal(this, i);
  }

  /** The thread's verdict on line `i`, or null when it has not got there. */
  verdict(i: number): boolean | null {
    const v = i < this.#verdicts.length ? Atomics.load(this.#verdicts, i) : 0;
    return v === 0 ? null : v === 2;
  }
}

class LineSeal implements SealCheck {
  constructor(
    readonly ahead: SealsAhead,
    readonly i: number,
  ) {}

  get key(): SealKey {
    return this.ahead.key;
  }

  valid(text: string): boolean {
    return this.ahead.verdict(this.i) ?? checkSeal(this.ahead.key, text);
  }
}

/**
 * Reading what `bun test` printed: the summary's counts, and the tests that failed under the
 * file they are in (a run in several groups prints them again at the end, in one place).
 */

export type Counts = { passed: number; failed: number; skipped: number };

/**
 * The counts of bun's summary (" 12 pass", " 1 fail", " 3 skip"). A process that failed without
 * a failed test (a crash, a file that does not load, no file matched) counts as one failure.
 */
export function summaryCounts(output: string, exitCode: number): Counts {
  const count = (word: string) => {
    const all = [...output.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, "gm"))];
    return all.length ? Number(all.at(-1)![1]) : 0;
  };
  const failed = count("fail");
  return { passed: count("pass"), failed: exitCode !== 0 && failed === 0 ? 1 : failed, skipped: count("skip") };
}

export const addCounts = (a: Counts, b: Counts): Counts => ({ passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped });

export const summaryLine = (c: Counts) => `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ""}`;

const FILE_HEADER = /^(\S.*\.(?:test|spec)\.[cm]?[jt]sx?):$/;

/** bun's own list of them at the end ("2 tests failed:"), where they are not under their file. */
const RECAP = /^\d+ tests? (?:failed|skipped|todo):$/;

/** Each "(fail) name" line of the output, after the test file it is in ("test/x.test.ts: (fail) …"). */
export function failedTests(output: string): string[] {
  let file: string | null = "";
  const out: string[] = [];
  for (const line of output.split("\n")) {
    const header = FILE_HEADER.exec(line);
    if (header) file = header[1]!;
    else if (RECAP.test(line)) file = null;
    else if (line.startsWith("(fail) ") && file !== null) out.push(file ? `${file}: ${line}` : line);
  }
  return out;
}

/**
 * A process's output as it streams: written through as it comes, and kept whole for the
 * summary and the failures (a full run prints a few MB).
 */
export class Kept {
  private parts: string[] = [];
  private readonly decoder = new TextDecoder();
  constructor(private readonly write: (text: string) => void) {}
  add(chunk: Uint8Array): void {
    const text = this.decoder.decode(chunk, { stream: true });
    this.write(text);
    this.parts.push(text);
  }
  text(): string {
    return this.parts.join("");
  }
}

/**
 * Per-file test durations, as bun test measures them (`--timings <file> --update-timings`:
 * { "version": 1, "files": { "./test/…": ms } }).
 *
 *   bun scripts/test-timings.ts              the last `npm test`'s (dist/test-timings.json), slowest first
 *   bun scripts/test-timings.ts <file.json>  another timings file's
 *   bun scripts/test-timings.ts --save       write the last run's into test/timings.json, which
 *                                            orders and balances npm test's workers (commit it)
 *
 * Prints one JSON line: { files: { path: seconds }, total_s, count }, slowest first.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const Timings = z.object({ version: z.literal(1), files: z.record(z.string(), z.number().nonnegative()) });
export type Timings = z.infer<typeof Timings>;

export function readTimings(file: string): Timings {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not a timings file (${(e as Error).message})`);
  }
  const parsed = Timings.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${file}: not a timings file: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

/** Seconds per file, slowest first, with their sum. */
export function perFileSeconds(t: Timings): { files: Record<string, number>; total_s: number; count: number } {
  const entries = Object.entries(t.files).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const files = Object.fromEntries(entries.map(([f, ms]) => [f, Math.round(ms / 100) / 10]));
  const total = entries.reduce((s, [, ms]) => s + ms, 0);
  return { files, total_s: Math.round(total / 100) / 10, count: entries.length };
}

/** The committed timings, updated with a run's: files that no longer exist are dropped, sorted by path (stable diffs). */
export function mergeTimings(committed: Timings, run: Timings, exists: (file: string) => boolean): Timings {
  const all = { ...committed.files, ...run.files };
  const files = Object.fromEntries(
    Object.entries(all)
      .filter(([f]) => exists(f))
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([f, ms]) => [f, Math.round(ms)]),
  );
  return { version: 1, files };
}

if (import.meta.main) {
  const root = join(import.meta.dir, "..");
  const last = join(root, "dist", "test-timings.json");
  const committed = join(root, "test", "timings.json");
  const args = process.argv.slice(2);
  try {
    if (args[0] === "--save") {
      const run = readTimings(last);
      const before = existsSync(committed) ? readTimings(committed) : { version: 1 as const, files: {} };
      const merged = mergeTimings(before, run, (f) => existsSync(join(root, f)));
      writeFileSync(committed, `${JSON.stringify(merged, null, 2)}\n`);
      console.error(`test/timings.json: ${Object.keys(merged.files).length} files (${Object.keys(run.files).length} from the last run)`);
    } else {
      const file = args[0] ?? last;
      if (!existsSync(file)) throw new Error(`${file} does not exist: run npm test first (it writes dist/test-timings.json)`);
      console.log(JSON.stringify(perFileSeconds(readTimings(file))));
    }
  } catch (e) {
    console.error(`test-timings: ${(e as Error).message}`);
    process.exit(1);
  }
}

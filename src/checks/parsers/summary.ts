import type { TestCounts } from "../../schema/checks.ts";
import { lines } from "./types.ts";

type Reader = (line: string) => { passing?: number; failing?: number } | null;

const num = (re: RegExp, s: string) => Number(re.exec(s)?.[1] ?? 0);

/** Summary lines of test runners whose failures the generic `file:line` reader anchors. */
const READERS: Reader[] = [
  // bun test: ` 13 pass` / ` 1 fail` on lines of their own
  (l) => (/^\s*(\d+) pass$/.test(l) ? { passing: num(/(\d+)/, l) } : /^\s*(\d+) fail$/.test(l) ? { failing: num(/(\d+)/, l) } : null),
  // jest: `Tests:       1 failed, 12 passed, 13 total`; vitest: `      Tests  1 failed | 12 passed (13)`
  (l) => (/^\s*Tests:?\s+.*\b(passed|failed)\b/.test(l) ? { passing: num(/(\d+) passed/, l), failing: num(/(\d+) failed/, l) } : null),
  // mocha: `  12 passing (30ms)` / `  1 failing`
  (l) => (/^\s+\d+ passing\b/.test(l) ? { passing: num(/(\d+)/, l) } : /^\s+\d+ failing$/.test(l) ? { failing: num(/(\d+)/, l) } : null),
];

/** Test counts from a bun, jest, vitest or mocha summary; undefined when the output has none. */
export function summaryCounts(text: string): TestCounts | undefined {
  let passing = 0;
  let failing = 0;
  let seen = false;
  for (const line of lines(text)) {
    for (const read of READERS) {
      const r = read(line);
      if (!r) continue;
      seen = true;
      passing += r.passing ?? 0;
      failing += r.failing ?? 0;
      break;
    }
  }
  return seen ? { passing, failing, total: passing + failing } : undefined;
}

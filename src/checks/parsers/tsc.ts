import { int, lines, type OutputParser, type RawFinding } from "./types.ts";

// `src/a.ts(12,5): error TS2322: …` (plain) and `src/a.ts:12:5 - error TS2322: …` (--pretty)
const PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+: .*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - (error|warning) (TS\d+: .*)$/;

/** The TypeScript compiler. */
export const parseTsc: OutputParser = (text) => {
  const findings: RawFinding[] = [];
  for (const line of lines(text)) {
    const m = PLAIN.exec(line) ?? PRETTY.exec(line);
    if (m) findings.push({ file: m[1]!.trim(), line: int(m[2]), column: int(m[3]), severity: m[4] as "error" | "warning", message: m[5]! });
  }
  return { findings };
};

import { counts, int, lines, type OutputParser, type RawFinding } from "./types.ts";

// `FAILED tests/test_x.py::test_y - AssertionError: …` (short test summary; `ERROR` for errors in setup/collection)
const SUMMARY = /^(FAILED|ERROR) ([^\s:]+\.py)(?:::(\S+))?(?: - (.*))?$/;
// `tests/test_x.py:12: AssertionError` (the location under a traceback)
const LOCATION = /^([^\s:]+\.py):(\d+): (\w*(?:Error|Exception|Failed|Exit)\w*.*)$/;
// `==== 2 failed, 10 passed, 1 skipped in 0.12s ====`
const TOTALS = /^=+ (.*\b(?:passed|failed|error|errors)\b.*) in [\d.]+s(?: \([^)]*\))? =+$/;

/** pytest: the failing test per summary line, anchored to the traceback's location in that file. */
export const parsePytest: OutputParser = (text) => {
  const where = new Map<string, { line: number; error: string }>();
  const findings: RawFinding[] = [];
  let passing = 0;
  let failing = 0;
  for (const line of lines(text)) {
    const loc = LOCATION.exec(line);
    if (loc && !where.has(loc[1]!)) where.set(loc[1]!, { line: Number(loc[2]), error: loc[3]! });
    const s = SUMMARY.exec(line);
    if (s) {
      const at = where.get(s[2]!);
      const what = s[3] ? `${s[3]}: ` : "";
      findings.push({
        file: s[2],
        line: at?.line,
        severity: "error",
        message: `${s[1] === "ERROR" ? "error in " : ""}${what}${s[4] ?? at?.error ?? "failed"}`,
      });
    }
    const t = TOTALS.exec(line);
    if (t) {
      for (const part of t[1]!.split(",")) {
        const m = /(\d+) (\w+)/.exec(part.trim());
        if (!m) continue;
        if (m[2] === "passed") passing += Number(m[1]);
        else if (m[2] === "failed" || m[2]!.startsWith("error")) failing += Number(m[1]);
      }
    }
  }
  // a failing file with no summary line (pytest -q without -rA): its traceback locations
  if (findings.length === 0) for (const [file, at] of where) findings.push({ file, line: int(String(at.line)), severity: "error", message: at.error });
  return { findings, tests: counts(passing, failing) };
};

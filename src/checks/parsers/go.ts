import { counts, int, lines, type OutputParser, type RawFinding } from "./types.ts";

// compile and vet errors: `./pkg/foo.go:12:5: undefined: x`
const COMPILE = /^(\.{0,2}\/?[^\s:]+\.go):(\d+):(?:(\d+):)? (.+)$/;
// a failing test's log line, indented under `--- FAIL: TestX`: `    foo_test.go:12: expected 1, got 2`
const TEST_LOG = /^\s+([^\s:]+\.go):(\d+): (.+)$/;
const RESULT = /^\s*--- (PASS|FAIL): (\S+)/;

/** go build / go vet / go test output. */
export const parseGo: OutputParser = (text) => {
  const findings: RawFinding[] = [];
  let failingTest: string | null = null;
  let passing = 0;
  let failing = 0;
  for (const line of lines(text)) {
    const r = RESULT.exec(line);
    if (r) {
      if (r[1] === "PASS") passing++;
      else failing++;
      failingTest = r[1] === "FAIL" ? r[2]! : null;
      continue;
    }
    const log = TEST_LOG.exec(line);
    if (log && failingTest) {
      findings.push({ file: log[1], line: int(log[2]), severity: "error", message: `${failingTest}: ${log[3]}` });
      continue;
    }
    const c = COMPILE.exec(line);
    if (c) findings.push({ file: c[1]!.replace(/^\.\//, ""), line: int(c[2]), column: int(c[3]), severity: "error", message: c[4]! });
  }
  return { findings, tests: counts(passing, failing) };
};

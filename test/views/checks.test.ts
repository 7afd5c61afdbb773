import { expect, test } from "bun:test";
import { checkHeadline, checkResultLines, findingAnchor } from "../../src/views/checks.ts";
import { CheckResult, type CheckResultInput } from "../../src/schema/checks.ts";
import type { CheckSnapshot } from "../../src/schema/run-api/checks.ts";
import { panelCheckLines } from "../../src/views/panel-checks.ts";
import { toPlain } from "../../src/views/line.ts";

const result = (over: Partial<CheckResultInput>): CheckResult =>
  CheckResult.parse({
    name: "test",
    command: "npm test",
    kind: "test",
    when: "after_implementation",
    round: 0,
    status: "failed",
    exit_code: 1,
    duration_ms: 12_000,
    started_at: "2026-11-28T15:00:00.000Z",
    finished_at: "2026-11-28T15:00:12.000Z",
    log: "checks/test.log",
    tail: [],
    findings: [],
    required: true,
    truncated: false,
    ...over,
  });

test("headlines: passed with its tests, failing tests, timed out, could not run, advisory and pre-existing notes", () => {
  expect(checkHeadline(result({ status: "passed", exit_code: 0, tests: { passing: 45, failing: 0, total: 45 } }))).toBe("✓ test passed in 12s (45 tests)");
  expect(checkHeadline(result({ tests: { passing: 40, failing: 5, total: 45 } }))).toBe("✗ test 5 of 45 tests failing in 12s");
  expect(checkHeadline(result({ status: "timed_out", exit_code: null, duration_ms: 600_000 }))).toBe("✗ test timed out after 10m 0s");
  expect(checkHeadline(result({ status: "error", exit_code: null, error: "not found: sh: 1: jest: not found\x1b[2J" }))).toBe(
    "✗ test could not run: not found: sh: 1: jest: not found", // required: it blocks, as in the monitor
  );
  expect(checkHeadline(result({ name: "lint", required: false, pre_existing: true, truncated: true, exit_code: 2 }))).toBe(
    "! lint exit 2 in 12s (advisory, already failing on the base, output truncated)",
  );
  // under a second: the milliseconds, not "0s"
  expect(checkHeadline(result({ status: "passed", exit_code: 0, duration_ms: 632 }))).toBe("✓ test passed in 632 ms");
  expect(checkHeadline(result({ duration_ms: 5 }))).toBe("✗ test exit 1 in 5 ms");
});

test("what failed: anchors and messages, failing lines when no file is named, cut and counted", () => {
  const findings = Array.from({ length: 10 }, (_, i) => ({ check: "test", file: "src/a.ts", line: i + 1, message: `bad ${i}\x1b[31m` }));
  const lines = checkResultLines(result({ findings: [...findings, { check: "test", message: "no anchor", pre_existing: true }] }), { maxItems: 3, width: 40 });
  expect(lines).toEqual(["✗ test 11 failures in 12s", "    src/a.ts:1 bad 0", "    src/a.ts:2 bad 1", "    src/a.ts:3 bad 2", "    … 8 more"]);
  expect(checkResultLines(result({ failing_lines: ["FAIL src/b.test.ts", "x".repeat(200)] }), { width: 30 })).toEqual([
    "✗ test exit 1 in 12s",
    "    │ FAIL src/b.test.ts",
    `    │ ${"x".repeat(23)}…`,
  ]);
  expect(checkResultLines(result({ status: "passed", exit_code: 0, findings }))).toEqual(["✓ test passed in 12s"]);
  expect(checkResultLines(result({ findings: findings.slice(0, 2), findings_omitted: 40 }), { maxItems: 1 })).toEqual([
    "✗ test 42 failures in 12s",
    "    src/a.ts:1 bad 0",
    "    … 41 more",
  ]);
  expect(findingAnchor({ file: "a.ts", column: 3 })).toBe("a.ts");
  expect(findingAnchor({ file: "a.ts", line: 2, column: 3 })).toBe("a.ts:2:3");
});

// the approval panel read "! test 1 failure · pre-existing  already failing on the base": the same thing twice
test("the approval panel's line of a pre-existing failure says it once, and that it blocks nothing", () => {
  const c: CheckSnapshot = {
    name: "test",
    round: 0,
    run: 1,
    state: "failed",
    command: "npm test",
    required: true,
    pre_existing: true,
    blocking: false,
    exit_code: 1,
    duration_ms: 600,
    failures: 1,
    findings: [],
    tests: null,
    log: null,
    file: null,
    started_at: null,
    finished_at: null,
  };
  const [line] = panelCheckLines([c], 0, 78, 0).map(toPlain);
  expect(line!.trimEnd()).toBe("› ! test 1 failure · pre-existing  blocks nothing: it fails on the base too");
  expect(line).not.toContain("already failing on the base");
});

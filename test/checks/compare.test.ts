import { describe, expect, test } from "bun:test";
import { compareAllWithBase, compareWithBase } from "../../src/checks/compare.ts";
import { checkBlocks, type CheckResultInput } from "../../src/schema/checks.ts";
import { checkResult } from "../helpers/check-result.ts";

const result = (over: Partial<CheckResultInput>) => checkResult({ command: "pytest", round: 1, ...over });
const f = (file: string, line: number, message: string) => ({ check: "test", file, line, message });

describe("compareWithBase", () => {
  test("the same findings on the base (lines moved): pre-existing, and it no longer blocks", () => {
    const cur = result({ findings: [f("tests/test_io.py", 40, "test_read: FileNotFoundError: config.ini")] });
    const base = result({ findings: [f("tests/test_io.py", 31, "test_read: FileNotFoundError: config.ini")] });
    const r = compareWithBase(cur, base);
    expect(r.pre_existing).toBe(true);
    expect(r.findings[0]!.pre_existing).toBe(true);
    expect(checkBlocks(r)).toBe(false);
  });

  test("a new finding besides the old ones: not pre-existing; each finding says which it is", () => {
    const cur = result({ findings: [f("tests/test_io.py", 40, "test_read: boom"), f("src/calc.py", 3, "test_add: assert 1 == 2")] });
    const r = compareWithBase(cur, result({ findings: [f("tests/test_io.py", 40, "test_read: boom")] }));
    expect(r.pre_existing).toBe(false);
    expect(r.findings.map((x) => x.pre_existing)).toEqual([true, false]);
    expect(checkBlocks(r)).toBe(true);
  });

  test("without findings: the same status and failing lines (numbers aside); more failing tests is new", () => {
    const cur = result({ failing_lines: ["make: *** [build] Error 2 after 1.52s"] });
    expect(compareWithBase(cur, result({ failing_lines: ["make: *** [build] Error 2 after 0.97s"] })).pre_existing).toBe(true);
    expect(compareWithBase(cur, result({ failing_lines: ["ld: cannot find -lssl"] })).pre_existing).toBe(false);
    expect(compareWithBase(cur, result({ status: "timed_out", failing_lines: cur.failing_lines })).pre_existing).toBe(false);
    const more = result({ failing_lines: ["2 failed"], tests: { passing: 8, failing: 2, total: 10 } });
    expect(compareWithBase(more, result({ failing_lines: ["1 failed"], tests: { passing: 9, failing: 1, total: 10 } })).pre_existing).toBe(false);
  });

  test("a base that passed makes it new; a passing check, a base that could not run or was not run leave it as it is", () => {
    const cur = result({ findings: [f("a.py", 1, "x")] });
    expect(compareWithBase(cur, result({ status: "passed", exit_code: 0 })).pre_existing).toBe(false);
    expect(compareWithBase(cur, result({ status: "error", exit_code: null })).pre_existing).toBeUndefined();
    expect(compareWithBase(cur, undefined)).toBe(cur);
    const passed = result({ status: "passed", exit_code: 0 });
    expect(compareWithBase(passed, result({}))).toBe(passed);
  });

  test("compareAllWithBase pairs results by check name", () => {
    const rs = compareAllWithBase(
      [result({ name: "lint", failing_lines: ["E1"] }), result({ name: "test", failing_lines: ["E2"] })],
      [result({ name: "test", failing_lines: ["E2"] })],
    );
    expect(rs.map((r) => [r.name, r.pre_existing])).toEqual([
      ["lint", undefined],
      ["test", true],
    ]);
  });
});

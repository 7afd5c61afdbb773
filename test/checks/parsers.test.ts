import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCargo } from "../../src/checks/parsers/cargo.ts";
import { parseEslint } from "../../src/checks/parsers/eslint.ts";
import { parseGo } from "../../src/checks/parsers/go.ts";
import { parseCheckOutput } from "../../src/checks/parsers/index.ts";
import { parseJunit } from "../../src/checks/parsers/junit.ts";
import { parsePytest } from "../../src/checks/parsers/pytest.ts";
import { summaryCounts } from "../../src/checks/parsers/summary.ts";
import { parseTap } from "../../src/checks/parsers/tap.ts";
import { parseTsc } from "../../src/checks/parsers/tsc.ts";
import { failingLines } from "../../src/checks/failing-lines.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const root = makeTmpDir("amx-parsers-");
afterAll(() => removeDir(root));
for (const f of ["src/util.ts", "web/src/app.tsx", "test/util.test.ts"]) {
  mkdirSync(join(root, f, ".."), { recursive: true });
  writeFileSync(join(root, f), "x\n");
}

describe("tsc", () => {
  test("plain and pretty diagnostics", () => {
    const out = `src/util.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.
src/index.ts(3,10): error TS2305: Module '"./util"' has no exported member 'parse'.
src/util.ts:40:1 - error TS1005: '}' expected.

40 }
   ~

Found 3 errors in 2 files.`;
    expect(parseTsc(out).findings).toEqual([
      { file: "src/util.ts", line: 12, column: 5, severity: "error", message: "TS2322: Type 'string' is not assignable to type 'number'." },
      { file: "src/index.ts", line: 3, column: 10, severity: "error", message: `TS2305: Module '"./util"' has no exported member 'parse'.` },
      { file: "src/util.ts", line: 40, column: 1, severity: "error", message: "TS1005: '}' expected." },
    ]);
  });
});

describe("eslint", () => {
  test("stylish: the file line, then its problems", () => {
    const out = `
/home/me/proj/src/util.ts
   3:10  error    'unused' is defined but never used  @typescript-eslint/no-unused-vars
  17:1   warning  Unexpected console statement        no-console

/home/me/proj/web/src/app.tsx
  8:7  error  Parsing error: Unexpected token

✖ 3 problems (2 errors, 1 warning)
`;
    expect(parseEslint(out).findings).toEqual([
      {
        file: "/home/me/proj/src/util.ts",
        line: 3,
        column: 10,
        severity: "error",
        message: "'unused' is defined but never used (@typescript-eslint/no-unused-vars)",
      },
      { file: "/home/me/proj/src/util.ts", line: 17, column: 1, severity: "warning", message: "Unexpected console statement (no-console)" },
      { file: "/home/me/proj/web/src/app.tsx", line: 8, column: 7, severity: "error", message: "Parsing error: Unexpected token" },
    ]);
  });

  test("unix format", () => {
    const out = `/home/me/proj/src/util.ts:3:10: 'unused' is defined but never used. [Error/no-unused-vars]
/home/me/proj/src/util.ts:17:1: Unexpected console statement. [Warning/no-console]

2 problems`;
    expect(parseEslint(out).findings).toEqual([
      { file: "/home/me/proj/src/util.ts", line: 3, column: 10, severity: "error", message: "'unused' is defined but never used. (no-unused-vars)" },
      { file: "/home/me/proj/src/util.ts", line: 17, column: 1, severity: "warning", message: "Unexpected console statement. (no-console)" },
    ]);
  });
});

describe("pytest", () => {
  test("summary lines anchored to their traceback, counts from the totals", () => {
    const out = `============================= test session starts ==============================
collected 12 items

tests/test_math.py ..F.                                                   [ 33%]
tests/test_io.py ......E.                                                 [100%]

==================================== ERRORS ====================================
_____________________ ERROR at setup of test_read_config ______________________
    @pytest.fixture
E       FileNotFoundError: config.ini
=================================== FAILURES ===================================
_________________________________ test_divide __________________________________

    def test_divide():
>       assert divide(6, 3) == 3
E       assert 2.0 == 3

tests/test_math.py:14: AssertionError
=========================== short test summary info ============================
FAILED tests/test_math.py::test_divide - assert 2.0 == 3
ERROR tests/test_io.py::test_read_config - FileNotFoundError: config.ini
==================== 1 failed, 10 passed, 1 error in 0.42s =====================`;
    const r = parsePytest(out);
    expect(r.findings).toEqual([
      { file: "tests/test_math.py", line: 14, severity: "error", message: "test_divide: assert 2.0 == 3" },
      { file: "tests/test_io.py", line: undefined, severity: "error", message: "error in test_read_config: FileNotFoundError: config.ini" },
    ]);
    expect(r.tests).toEqual({ passing: 10, failing: 2, total: 12 });
  });
});

describe("go", () => {
  test("test failures under their test, compile errors, counts with -v", () => {
    const out = `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestDivide
    math_test.go:21: Divide(6, 3) = 2.5, want 2
--- FAIL: TestDivide (0.00s)
FAIL
FAIL	example.com/calc	0.004s
# example.com/calc/web
web/handler.go:33:2: undefined: renderPage
ok  	example.com/calc/store	0.010s`;
    const r = parseGo(out);
    expect(r.findings).toEqual([{ file: "web/handler.go", line: 33, column: 2, severity: "error", message: "undefined: renderPage" }]);
    expect(r.tests).toEqual({ passing: 1, failing: 1, total: 2 });
    const logged = parseGo(`--- FAIL: TestDivide (0.00s)\n    math_test.go:21: Divide(6, 3) = 2.5, want 2\nFAIL`);
    expect(logged.findings).toEqual([{ file: "math_test.go", line: 21, severity: "error", message: "TestDivide: Divide(6, 3) = 2.5, want 2" }]);
  });
});

describe("cargo", () => {
  test("compiler diagnostics, a panicking test, test result counts", () => {
    const out = `   Compiling calc v0.1.0 (/home/me/calc)
warning: unused variable: \`x\`
 --> src/lib.rs:3:9
  |
3 |     let x = 5;
  |         ^ help: if this is intentional, prefix it with an underscore: \`_x\`

error[E0308]: mismatched types
  --> src/main.rs:4:18
   |
4  |     let n: u32 = "five";
   |            ---   ^^^^^^ expected \`u32\`, found \`&str\`

error: could not compile \`calc\` (bin "calc") due to 1 previous error
running 3 tests
test tests::adds ... ok
test tests::divides ... FAILED

---- tests::divides stdout ----
thread 'tests::divides' panicked at src/lib.rs:21:9:
assertion \`left == right\` failed
  left: 2
 right: 3

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s`;
    const r = parseCargo(out);
    expect(r.findings).toEqual([
      { file: "src/lib.rs", line: 3, column: 9, severity: "warning", message: "unused variable: `x`" },
      { file: "src/main.rs", line: 4, column: 18, severity: "error", message: "E0308: mismatched types" },
      { file: "src/lib.rs", line: 21, column: 9, severity: "error", message: "tests::divides: assertion `left == right` failed" },
    ]);
    expect(r.tests).toEqual({ passing: 2, failing: 1, total: 3 });
  });
});

describe("TAP", () => {
  test("node --test: not ok with its location, totals from the trailer", () => {
    const out = `TAP version 13
# Subtest: adds
ok 1 - adds
  ---
  duration_ms: 0.4
  ...
# Subtest: divides
not ok 2 - divides
  ---
  duration_ms: 0.9
  location: '/home/me/proj/test/util.test.ts:12:1'
  failureType: 'testCodeFailure'
  error: 'Expected values to be strictly equal'
  ...
ok 3 - skipped one # SKIP not on linux
1..3
# tests 3
# pass 1
# fail 1`;
    const r = parseTap(out);
    expect(r.findings).toEqual([{ severity: "error", message: "divides", file: "/home/me/proj/test/util.test.ts", line: 12, column: 1 }]);
    expect(r.tests).toEqual({ passing: 1, failing: 1, total: 2 });
  });

  test("classic TAP with file and line in the block; counts from the lines", () => {
    const r = parseTap(`1..2\nok 1 parses\nnot ok 2 - rejects bad input\n  ---\n  file: t/parse.t\n  line: 40\n  ...`);
    expect(r.findings).toEqual([{ severity: "error", message: "rejects bad input", file: "t/parse.t", line: 40 }]);
    expect(r.tests).toEqual({ passing: 1, failing: 1, total: 2 });
  });
});

describe("JUnit XML", () => {
  test("failures and errors with file/line attributes or an anchor in their text; skipped left out", () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="0" failures="2" skipped="1" tests="5">
<testcase classname="tests.test_math" name="test_add" file="tests/test_math.py" line="3" time="0.001"/>
<testcase classname="tests.test_math" name="test_divide" file="tests/test_math.py" line="12" time="0.002"><failure message="assert 2.0 == 3">def test_divide():
&gt;       assert divide(6, 3) == 3</failure></testcase>
<testcase classname="calc" name="parses &amp; rounds" time="0"><error><![CDATA[Error: bad
    at Object.<anonymous> (src/util.ts:40:7)]]></error></testcase>
<testcase classname="calc" name="later"><skipped message="todo"/></testcase>
<testcase classname="calc" name="ok"></testcase>
</testsuite></testsuites>`;
    const r = parseJunit(xml);
    expect(r.findings).toEqual([
      { file: "tests/test_math.py", line: 12, column: undefined, severity: "error", message: "tests.test_math.test_divide: assert 2.0 == 3" },
      { file: "src/util.ts", line: 40, column: 7, severity: "error", message: "calc.parses & rounds: Error: bad" },
    ]);
    expect(r.tests).toEqual({ passing: 2, failing: 2, total: 4 });
  });
});

describe("summary counts", () => {
  test("bun test, jest, vitest, mocha", () => {
    expect(summaryCounts(" 13 pass\n 1 fail\n 51 expect() calls")).toEqual({ passing: 13, failing: 1, total: 14 });
    expect(summaryCounts("Tests:       1 failed, 12 passed, 13 total")).toEqual({ passing: 12, failing: 1, total: 13 });
    expect(summaryCounts("      Tests  1 failed | 12 passed (13)")).toEqual({ passing: 12, failing: 1, total: 13 });
    expect(summaryCounts("  12 passing (30ms)\n  1 failing")).toEqual({ passing: 12, failing: 1, total: 13 });
    expect(summaryCounts("all good")).toBeUndefined();
  });
});

describe("parseCheckOutput", () => {
  test("auto: paths become repository-relative, from the check's folder or absolute", () => {
    const r = parseCheckOutput(`src/app.tsx(2,3): error TS2304: Cannot find name 'x'.\n${root}/src/util.ts:1:1: bad. [Error/semi]`, {
      check: "types",
      parser: "auto",
      root,
      cwd: "web",
    });
    expect(r.findings).toEqual([
      { check: "types", file: "web/src/app.tsx", line: 2, column: 3, severity: "error", message: "TS2304: Cannot find name 'x'." },
      { check: "types", file: "src/util.ts", line: 1, column: 1, severity: "error", message: "bad. (semi)" },
    ]);
  });

  test("the generic reader takes only files that exist in the checkout (bun test's stack frames)", () => {
    const out = `test/util.test.ts:
12 |   expect(add(1, 2)).toBe(4);
error: expect(received).toBe(expected)
      at <anonymous> (${root}/test/util.test.ts:12:21)
      at run (${root}/node_modules/x/index.js:3:1)
      at fetch (http://localhost:3000/api.js:1:1)
(fail) adds [0.4ms]
 3 pass
 1 fail
version 1.2:3 of missing/file.ts:9`;
    const r = parseCheckOutput(out, { check: "test", parser: "auto", root, cwd: "." });
    expect(r.findings).toEqual([
      { check: "test", file: "test/util.test.ts", line: 12, column: 21, message: `at <anonymous> (${root}/test/util.test.ts:12:21)` },
    ]);
    expect(r.tests).toEqual({ passing: 3, failing: 1, total: 4 });
  });

  test("a JUnit report's counts win; parser `none` reads nothing", () => {
    const junit = `<testsuite><testcase name="a"/><testcase name="b"><failure message="boom"/></testcase></testsuite>`;
    expect(parseCheckOutput(" 5 pass\n", { check: "t", parser: "auto", root, cwd: ".", junit }).tests).toEqual({ passing: 1, failing: 1, total: 2 });
    expect(parseCheckOutput(`src/util.ts(1,1): error TS1: x`, { check: "t", parser: "none", root, cwd: "." })).toEqual({ findings: [] });
  });
});

describe("failingLines", () => {
  test("the lines that say what failed, without stack frames; the last lines when none does", () => {
    const tail = [
      "> test",
      "PASS src/a.test.ts",
      "FAIL src/b.test.ts",
      "  ● divides",
      "    Expected: 3",
      "    Received: 2",
      "      at Object.<anonymous> (src/b.test.ts:4:5)",
      "Tests: 1 failed, 3 passed",
    ];
    expect(failingLines(tail)).toEqual(["FAIL src/b.test.ts", "    Expected: 3", "    Received: 2", "Tests: 1 failed, 3 passed"]);
    expect(failingLines(["building", "done", ""])).toEqual(["building", "done"]);
  });
});

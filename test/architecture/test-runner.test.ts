import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { asArg, groups, selectFiles, splitArgs, testJobs } from "../../scripts/test-plan.ts";
import { addCounts, failedTests, summaryCounts, summaryLine } from "../../scripts/test-output.ts";
import { mergeTimings, perFileSeconds, readTimings } from "../../scripts/test-timings.ts";
import { makeTmpDir, REPO_ROOT } from "../helpers/tmp.ts";

/** npm test's runner (scripts/test.ts): which files, how many at once, and one summary line over all of them. */
describe("the test runner's plan", () => {
  test("arguments: paths pick files, flags and their values go to every bun test", () => {
    expect(splitArgs(["test/e2e", "-t", "demo run", "--bail", "--timeout", "5000", "log.test"])).toEqual({
      patterns: ["test/e2e", "log.test"],
      flags: ["-t", "demo run", "--bail", "--timeout", "5000"],
    });
    expect(splitArgs(["--test-name-pattern=x", "a"])).toEqual({ patterns: ["a"], flags: ["--test-name-pattern=x"] });
  });

  test("a pattern is a file, a folder (not a folder whose name starts the same), or a part of the path", () => {
    const root = makeTmpDir("amx-runner-");
    for (const f of ["test/e2e/demo.test.ts", "test/e2e/log.test.ts", "test/e2e-extra/x.test.ts", "test/tui/catalog.test.ts"]) {
      mkdirSync(join(root, f, ".."), { recursive: true });
      writeFileSync(join(root, f), "");
    }
    const all = ["test/e2e/demo.test.ts", "test/e2e/log.test.ts", "test/e2e-extra/x.test.ts", "test/tui/catalog.test.ts"].map((f) => join(root, f));
    const pick = (...p: string[]) => selectFiles(all, p, root).map((f) => asArg(f, root));
    expect(pick()).toHaveLength(4);
    expect(pick("test/e2e")).toEqual(["./test/e2e/demo.test.ts", "./test/e2e/log.test.ts"]);
    expect(pick(join(root, "test/e2e/log.test.ts"))).toEqual(["./test/e2e/log.test.ts"]);
    expect(pick("log.test")).toEqual(["./test/e2e/log.test.ts", "./test/tui/catalog.test.ts"]);
    expect(pick("/log.test")).toEqual(["./test/e2e/log.test.ts"]);
    expect(pick("demo", "catalog")).toEqual(["./test/e2e/demo.test.ts", "./test/tui/catalog.test.ts"]);
    expect(pick("nothing-like-it")).toEqual([]);
  });

  test("the real-CLI suite's files run alone, after the rest", () => {
    const files = ["test/e2e/demo.test.ts", "test/real-cli/pipeline.test.ts", "test/real-cli/real-cli.test.ts", "test/tui/home.test.ts"].map((f) =>
      join(REPO_ROOT, f),
    );
    const g = groups(files, REPO_ROOT);
    expect(g.parallel.map((f) => asArg(f, REPO_ROOT))).toEqual(["./test/e2e/demo.test.ts", "./test/tui/home.test.ts"]);
    expect(g.serial.map((f) => asArg(f, REPO_ROOT))).toEqual(["./test/real-cli/pipeline.test.ts", "./test/real-cli/real-cli.test.ts"]);
  });

  test("workers: one more than the cores, or AGENTMUX_TEST_JOBS; anything but a whole number ≥ 1 is named", () => {
    expect(testJobs({}, 2)).toBe(3);
    expect(testJobs({ AGENTMUX_TEST_JOBS: "" }, 8)).toBe(9);
    expect(testJobs({ AGENTMUX_TEST_JOBS: "1" }, 2)).toBe(1);
    expect(testJobs({ AGENTMUX_TEST_JOBS: " 5 " }, 2)).toBe(5);
    for (const bad of ["0", "-2", "two", "1.5"])
      expect(() => testJobs({ AGENTMUX_TEST_JOBS: bad }, 2)).toThrow(`AGENTMUX_TEST_JOBS must be a whole number of test processes, 1 or more (it is "${bad}")`);
  });
});

describe("the test runner's output", () => {
  const output = [
    "bun test v1.4.5 (a7733435c) 3x PARALLEL",
    "",
    "test/e2e/demo.test.ts:",
    "(pass) the demo commits [812.00ms]",
    "(fail) the demo opens a pull request [90.10ms]",
    "",
    "test/tui/home.test.ts:",
    "(skip) home on a 1-column terminal",
    "(fail) home lists runs > newest first [1.20ms]",
    "",
    "1 tests skipped:",
    "(skip) home on a 1-column terminal",
    "",
    "2 tests failed:",
    "(fail) the demo opens a pull request",
    "(fail) home lists runs > newest first",
    "",
    " 12 pass",
    " 1 skip",
    " 2 fail",
    " 40 expect() calls",
    "Ran 15 tests across 2 files. [1.20s]",
  ].join("\n");

  test("the summary's counts, and each failed test under its file", () => {
    expect(summaryCounts(output, 1)).toEqual({ passed: 12, failed: 2, skipped: 1 });
    expect(failedTests(output)).toEqual([
      "test/e2e/demo.test.ts: (fail) the demo opens a pull request [90.10ms]",
      "test/tui/home.test.ts: (fail) home lists runs > newest first [1.20ms]",
    ]);
  });

  test("a bun test that failed without a failed test (it crashed, a flag was wrong) is one failure", () => {
    expect(summaryCounts('error: Invalid timeout: "abc"', 1)).toEqual({ passed: 0, failed: 1, skipped: 0 });
    expect(summaryCounts(" 3 pass\n 0 fail", 0)).toEqual({ passed: 3, failed: 0, skipped: 0 });
  });

  test("groups add up into one line", () => {
    const total = addCounts(summaryCounts(output, 1), summaryCounts(" 3 pass\n 0 fail", 0));
    expect(summaryLine(total)).toBe("15 passed, 2 failed, 1 skipped");
    expect(summaryLine({ passed: 4, failed: 0, skipped: 0 })).toBe("4 passed, 0 failed");
  });
});

describe("npm test itself (scripts/test.ts, without its type check, format check and build)", () => {
  const run = (args: string[], env: Record<string, string> = {}) => {
    const r = Bun.spawnSync([process.execPath, join(REPO_ROOT, "scripts", "test.ts"), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, AGENTMUX_SKIP_TYPECHECK: "1", AGENTMUX_SKIP_FORMAT: "1", AGENTMUX_SKIP_BUILD: "1", ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };

  test("two files on two workers: bun runs them in parallel, and the last line counts both files' tests", () => {
    const r = run(["test/schema/inert-text.test.ts", "test/schema/tmux-names.test.ts"], { AGENTMUX_TEST_JOBS: "2" });
    expect(r.stderr).toContain("2 files, 2 at a time");
    expect(r.stdout).toContain("2x PARALLEL");
    const files = r.stderr.split("\n").filter((l) => /^test\/schema\/.*\.test\.ts:$/.test(l));
    expect(files.sort()).toEqual(["test/schema/inert-text.test.ts:", "test/schema/tmux-names.test.ts:"]);
    const passes = r.stderr.split("\n").filter((l) => l.startsWith("(pass) ")).length;
    expect(passes).toBeGreaterThan(2);
    expect(r.stdout.trim().split("\n").at(-1)).toBe(`${passes} passed, 0 failed`);
    expect(r.code).toBe(0);
  }, 60_000);

  test("a bun test that fails keeps the exit code; a pattern that matches nothing and a bad AGENTMUX_TEST_JOBS say so and fail", () => {
    const bad = run(["test/schema/inert-text.test.ts", "--timeout", "abc"], { AGENTMUX_TEST_JOBS: "1" });
    expect(bad.code).not.toBe(0);
    expect(bad.stdout.trim().split("\n").at(-1)).toBe("0 passed, 1 failed");
    const none = run(["test/no-such-folder-or-file"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no test file matches "test/no-such-folder-or-file"');
    expect(none.stdout.trim()).toBe("0 passed, 1 failed");
    const jobs = run(["test/schema/inert-text.test.ts"], { AGENTMUX_TEST_JOBS: "many" });
    expect(jobs.code).toBe(1);
    expect(jobs.stderr).toContain('AGENTMUX_TEST_JOBS must be a whole number of test processes, 1 or more (it is "many")');
  }, 60_000);
});

describe("per-file durations (scripts/test-timings.ts)", () => {
  test("seconds per file, slowest first; a run's durations update the committed ones and a file that is gone is dropped", () => {
    const run = { version: 1 as const, files: { "test/a.test.ts": 1234, "test/b.test.ts": 56_789 } };
    expect(perFileSeconds(run)).toEqual({ files: { "test/b.test.ts": 56.8, "test/a.test.ts": 1.2 }, total_s: 58, count: 2 });
    expect(Object.keys(perFileSeconds(run).files)).toEqual(["test/b.test.ts", "test/a.test.ts"]);
    const committed = { version: 1 as const, files: { "test/a.test.ts": 900, "test/gone.test.ts": 5, "test/c.test.ts": 70.4 } };
    expect(mergeTimings(committed, run, (f) => f !== "test/gone.test.ts")).toEqual({
      version: 1,
      files: { "test/a.test.ts": 1234, "test/b.test.ts": 56_789, "test/c.test.ts": 70 },
    });
  });

  test("a file that is not bun's timings format is named with what is wrong", () => {
    const dir = makeTmpDir("amx-timings-");
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ version: 2, files: { "test/a.test.ts": "slow" } }));
    expect(() => readTimings(join(dir, "bad.json"))).toThrow(/bad\.json: not a timings file: version: .*; files\.test\/a\.test\.ts: /);
    writeFileSync(join(dir, "torn.json"), '{"version": 1, "fil');
    expect(() => readTimings(join(dir, "torn.json"))).toThrow(/torn\.json: not a timings file \(/);
    expect(readTimings(join(REPO_ROOT, "test", "timings.json")).version).toBe(1);
  });
});

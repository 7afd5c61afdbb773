import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCheck } from "../../src/checks/run.ts";
import { firstProgram, preflightChecks } from "../../src/checks/preflight.ts";
import { CheckSpec, type CheckSpecInput } from "../../src/schema/checks.ts";
import { Config } from "../../src/schema/config.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const root = makeTmpDir("amx-check-run-");
afterAll(() => removeDir(root));
mkdirSync(join(root, "src"));
writeFileSync(join(root, "src/calc.ts"), "export const add = (a: number, b: number) => a - b;\n");
mkdirSync(join(root, "scripts"));
writeFileSync(join(root, "scripts/lint.sh"), "#!/bin/sh\necho ok\n");
chmodSync(join(root, "scripts/lint.sh"), 0o755);

let n = 0;
const run = (spec: CheckSpecInput, over: { portOffset?: number; env?: Record<string, string> } = {}) =>
  runCheck("test", CheckSpec.parse(spec), {
    root,
    logPath: join(root, `.logs/${n}.log`),
    logName: `checks/${n++}.log`,
    round: 2,
    when: "after_coder",
    ...over,
  });

describe("runCheck", () => {
  test("a passing check: status, duration, log, counts from its summary, no findings", async () => {
    const r = await run({ command: "echo ' 4 pass'; echo ' 0 fail'" });
    expect(r).toMatchObject({
      name: "test",
      kind: "test",
      status: "passed",
      exit_code: 0,
      round: 2,
      when: "after_coder",
      log: `checks/${n - 1}.log`,
      findings: [],
      failing_lines: [],
      required: true,
      truncated: false,
      tests: { passing: 4, failing: 0, total: 4 },
    });
    expect(r.duration_ms).toBeGreaterThanOrEqual(0);
  });

  test("a failing check: findings anchored in the checkout, failing lines, control characters gone from the tail", async () => {
    const r = await run({ command: "printf 'src/calc.ts(1,52): error TS2322: \\033[31mwrong\\033[0m\\n'; echo 'Found 1 error.'; exit 2", required: false });
    expect(r).toMatchObject({ status: "failed", exit_code: 2, required: false });
    expect(r.findings).toEqual([{ check: "test", file: "src/calc.ts", line: 1, column: 52, severity: "error", message: "TS2322: wrong" }]);
    expect(r.tail).toEqual(["src/calc.ts(1,52): error TS2322: wrong", "Found 1 error."]);
    expect(r.failing_lines).toEqual(r.tail);
  });

  test("it runs in its folder with the run's env, the port offset and its own env over them", async () => {
    const r = await run(
      { command: 'echo "$PWD $AGENTMUX_PORT_OFFSET $AGENTMUX_CHECK $RUN_VAR $OWN"', cwd: "src", env: { OWN: "mine", RUN_VAR: "overridden" } },
      { portOffset: 20, env: { RUN_VAR: "run" } },
    );
    expect(r.tail).toEqual([`${join(root, "src")} 20 test overridden mine`]);
  });

  test("a timeout kills it: status timed_out with the reason", async () => {
    const r = await run({ command: "echo started; sleep 30", timeout_s: 1 });
    expect(r).toMatchObject({ status: "timed_out", exit_code: null, error: "did not finish within 1 s: its process group was killed", tail: ["started"] });
  });

  test("a command that is not found is an error, not a failure", async () => {
    const r = await run({ command: "no-such-tool-xyz --run" });
    expect(r.status).toBe("error");
    expect(r.error).toContain("not found");
  });

  test("findings are capped at MAX_FINDINGS; the rest are counted", async () => {
    const r = await run({ command: 'for i in $(seq 1 130); do echo "src/calc.ts($i,1): error TS1000: bad $i"; done; exit 2' });
    expect(r.findings).toHaveLength(100);
    expect(r.findings_omitted).toBe(30);
    expect(r.findings.at(-1)!.message).toBe("TS1000: bad 100");
  });

  test("a JUnit report it writes gives findings and counts", async () => {
    const r = await run({
      command: `printf '<testsuite><testcase name="adds" file="src/calc.ts" line="1"><failure message="2 != 0"/></testcase><testcase name="b"/></testsuite>' > report.xml; exit 1`,
      junit: "report.xml",
      parser: "none",
    });
    expect(r.findings).toEqual([{ check: "test", file: "src/calc.ts", line: 1, severity: "error", message: "adds: 2 != 0" }]);
    expect(r.tests).toEqual({ passing: 1, failing: 1, total: 2 });
    expect(readFileSync(join(root, ".logs", `${n - 1}.log`), "utf8")).toBe("");
  });
});

describe("preflightChecks", () => {
  test("the program a command starts with", () => {
    expect(firstProgram("npm test")).toBe("npm");
    expect(firstProgram("CI=1 FORCE_COLOR=0 npx eslint .")).toBe("npx");
    expect(firstProgram("env -u X NODE_ENV=test node t.js")).toBe("node");
    expect(firstProgram("./gradlew check")).toBe("./gradlew");
    expect(firstProgram("cd web && npm test")).toBeNull();
    expect(firstProgram("$RUNNER test")).toBeNull();
    expect(firstProgram("make;")).toBe("make");
  });

  test("names each check whose program or folder is missing; a script in its folder and a program on PATH are fine", () => {
    const config = Config.parse({
      checks: {
        ok: { command: "sh -c true" },
        script: { command: "./scripts/lint.sh --fix" },
        local: { command: "lint.sh", cwd: "scripts" },
        missing: { command: "no-such-tool-xyz run" },
        noscript: { command: "./scripts/nope.sh" },
        nofolder: { command: "true", cwd: "web" },
        ownpath: { command: "lint.sh", env: { PATH: join(root, "scripts") } },
      },
    });
    expect(preflightChecks(config, root)).toEqual([
      { check: "missing", field: "command", problem: "no-such-tool-xyz was not found on PATH or in the repository root" },
      { check: "noscript", field: "command", problem: `./scripts/nope.sh is not an executable file (looked in ${root})` },
      { check: "nofolder", field: "cwd", problem: `its folder web does not exist in ${root}` },
    ]);
  });

  // printf "\033[31m" in YAML double quotes: the check failed with node's "args[5] must be a string without null bytes"
  test("a command with a NUL character is named before it runs", () => {
    const config = Config.parse({ checks: { color: { command: "printf '\u0000red'" } } });
    expect(preflightChecks(config, root)).toEqual([{ check: "color", field: "command", problem: expect.stringContaining("contains a NUL character") }]);
  });
});

import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { CheckResult } from "../../src/schema/checks.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

/** `agentmux checks` (#26.1): the configured checks by hand, through the compiled binary. */
const scope = binaryScope();
let project: string;
beforeEach(() => {
  project = makeTmpDir("amx-checks-cli-");
  mkdirSync(join(project, ".agentmux"));
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "src/calc.ts"), "export const add = (a: number, b: number) => a - b;\n");
});
afterEach(() => removeDir(project));

const configure = (checks: object) => writeFileSync(join(project, ".agentmux/config.yaml"), stringify({ version: 2, checks }));
const cli = (...args: string[]) => {
  const r = Bun.spawnSync([scope.bin, "checks", ...args], { cwd: project, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};

const TSC_FAIL = "printf 'src/calc.ts(1,52): error TS2322: \\033]0;pwned\\007wrong \\033[31mtype\\033[0m\\n'; echo 'Found 1 error.'; exit 2";

test("one line per check with the anchors of what failed, never raw output; exit 1 when a required check fails", () => {
  configure({ test: { command: "echo ' 3 pass'; echo ' 0 fail'" }, types: { command: TSC_FAIL } });
  const r = cli();
  expect(r.code).toBe(1);
  const lines = r.out.split("\n");
  expect(lines[0]).toMatch(/^✓ test passed in (\d+s|\d+ ms) \(3 tests\)$/);
  expect(lines[1]).toMatch(/^✗ types 1 failure in (\d+s|\d+ ms)$/);
  expect(lines[2]).toBe("    src/calc.ts:1:52 TS2322: wrong type");
  expect(lines[3]).toBe(`output of each check: ${join(project, ".agentmux/.sessions/.checks")}/<name>.log`);
  expect(r.out).not.toContain("\x1b");
  expect(r.out).not.toContain("pwned\x07");
  // the raw output is in the log
  expect(readFileSync(join(project, ".agentmux/.sessions/.checks/types.log"), "utf8")).toContain("\x1b[31mtype");
});

test("named checks only; an advisory failure does not fail the command", () => {
  configure({ test: { command: "exit 1" }, lint: { command: "echo 'src/calc.ts:1:1: no semicolon'; exit 1", required: false } });
  const r = cli("lint");
  expect(r.code).toBe(0);
  expect(r.out.split("\n")[0]).toMatch(/^! lint 1 failure in (\d+s|\d+ ms) \(advisory\)$/);
  expect(r.out).toContain("    src/calc.ts:1:1 no semicolon");
  expect(r.out).not.toContain("test");
});

test("--json prints the CheckResult array", () => {
  configure({ test: { command: "echo ok" }, types: { command: TSC_FAIL } });
  const r = cli("--json");
  expect(r.code).toBe(1);
  const results = (JSON.parse(r.out) as unknown[]).map((x) => CheckResult.parse(x));
  expect(results.map((x) => [x.name, x.status, x.when, x.log])).toEqual([
    ["test", "passed", "manual", ".agentmux/.sessions/.checks/test.log"],
    ["types", "failed", "manual", ".agentmux/.sessions/.checks/types.log"],
  ]);
  expect(results[1]!.findings).toEqual([{ check: "types", file: "src/calc.ts", line: 1, column: 52, severity: "error", message: "TS2322: wrong type" }]);
});

test("an unknown check name is a usage error; a program not found is named before anything runs", () => {
  configure({ test: { command: "touch ran.txt" }, lint: { command: "no-such-linter-xyz ." } });
  const unknown = cli("tset");
  expect(unknown.code).toBe(2);
  expect(unknown.err).toContain("no check named tset");
  expect(unknown.err).toContain("configured checks: test, lint");
  const missing = cli();
  expect(missing.code).toBe(2);
  expect(missing.err).toContain("checks.lint.command: no-such-linter-xyz was not found on PATH or in the repository root");
  expect(() => readFileSync(join(project, "ran.txt"))).toThrow();
});

// a check of a --config file was said to need fixing "in .agentmux/config.yaml", a file that did not have it
test("a check that cannot run is not pinned on .agentmux/config.yaml when another file set it: agentmux config names the file", () => {
  configure({ test: { command: "echo ok" } });
  const extra = join(project, "extra.yaml");
  writeFileSync(extra, stringify({ checks: { ghost: { command: "no-such-tool-xyz" } } }));
  const r = cli("--config", extra);
  expect(r.code).toBe(2);
  expect(r.err).toContain("checks.ghost.command: no-such-tool-xyz was not found");
  expect(r.err).not.toContain(".agentmux/config.yaml");
  expect(r.err).toContain("agentmux config");
});

test("no checks configured: says how to add them, exit 0", () => {
  configure({});
  const r = cli();
  expect(r.code).toBe(0);
  expect(r.err).toContain("no checks are configured");
});

test("an unknown field in a check is a config error naming it", () => {
  configure({ test: { command: "true", timeout: 5 } });
  const r = cli();
  expect(r.code).toBe(2);
  expect(r.err).toContain("checks.test.timeout: unknown key — did you mean timeout_s?");
});

test("--base BRANCH: a failure already on that branch is marked and does not fail the command; a new one does", () => {
  const git = (...a: string[]) => {
    const r = Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...a], { cwd: project, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  };
  // `old` fails on main and still fails; `new` passes on main and fails on the feature branch
  const failsIf = (file: string) => `test ! -f ${file} || { echo "src/calc.ts:1:1: broken by ${file}"; exit 1; }`;
  configure({ old: { command: failsIf("old.flag") }, new: { command: failsIf("new.flag") } });
  writeFileSync(join(project, "old.flag"), "");
  writeFileSync(join(project, ".gitignore"), ".agentmux/.sessions/\n");
  git("init", "-q", "-b", "main");
  git("add", ".");
  git("commit", "-qm", "base");
  git("checkout", "-qb", "feature");
  writeFileSync(join(project, "new.flag"), "");

  const r = cli("--base", "main");
  expect(r.code).toBe(1);
  expect(r.err).toContain("agentmux: running 2 failing check(s) on main (");
  const lines = r.out.split("\n");
  expect(lines[0]).toMatch(/^! old 1 failure in (\d+s|\d+ ms) \(already failing on the base\)$/);
  expect(lines[1]).toBe("    src/calc.ts:1:1 (on the base too) broken by old.flag");
  expect(lines[2]).toMatch(/^✗ new 1 failure in (\d+s|\d+ ms)$/);
  // only the old failure: exit 0
  configure({ old: { command: failsIf("old.flag") } });
  expect(cli("--base", "main").code).toBe(0);
  const nope = cli("--base", "nope");
  expect(nope.code).toBe(2);
  expect(nope.err).toContain("--base nope: no branch nope here, neither local nor origin/nope");
});

test("checks: written as a list is refused with the shape it must have, the list rewritten as that mapping, and nothing run or written", () => {
  writeFileSync(
    join(project, ".agentmux/config.yaml"),
    "version: 2\nchecks:\n  - name: test\n    command: npm test\n  - name: lint\n    command: npm run lint\n    required: false\n",
  );
  const r = cli();
  expect(r.code).toBe(2);
  expect(r.err).toContain(
    [
      "agentmux: config: .agentmux/config.yaml: checks: expected a mapping of names to their settings, got a list; this list written as that mapping:",
      "    checks:",
      "      test:",
      "        command: npm test",
      "      lint:",
      "        command: npm run lint",
      "        required: false",
      "  hint: fix the file, then check the result with: agentmux config",
    ].join("\n"),
  );
  expect(r.out).toBe("");
  expect(existsSync(join(project, ".agentmux/.sessions"))).toBe(false);
  // a list without names: the shape and an example
  writeFileSync(join(project, ".agentmux/config.yaml"), "version: 2\nchecks:\n  - npm test\n");
  expect(cli().err).toContain(
    "checks: expected a mapping of names to their settings, got a list; for example:\n    checks:\n      test:\n        command: npm test",
  );
});

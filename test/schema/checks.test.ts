import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { AgentmuxError } from "../../src/errors.ts";
import { CheckResult, CheckSpec, checkBlocks } from "../../src/schema/checks.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

let root: string;
let project: string;
let env: Record<string, string>;

beforeEach(() => {
  root = makeTmpDir("amx-checks-schema-");
  project = join(root, "project");
  mkdirSync(join(project, ".agentmux"), { recursive: true });
  env = { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "xdg") };
});
afterEach(() => removeDir(root));

const load = (yaml: string) => {
  writeFileSync(join(project, ".agentmux", "config.yaml"), yaml);
  return loadConfig({ projectDir: project, env }).config;
};
const loadError = (yaml: string): AgentmuxError => {
  try {
    load(yaml);
  } catch (e) {
    expect(e).toBeInstanceOf(AgentmuxError);
    return e as AgentmuxError;
  }
  throw new Error("expected loadConfig to throw");
};

describe("checks: in the config", () => {
  test("no checks by default; a check gets its defaults", () => {
    expect(load("version: 2\n").checks).toEqual({});
    const c = load("checks:\n  test:\n    command: npm test\n").checks;
    expect(c).toEqual({ test: { command: "npm test", cwd: ".", timeout_s: 600, env: {}, when: ["after_implementation"], required: true, parser: "auto" } });
  });

  test("every field is read", () => {
    const c = load(
      "checks:\n  lint:\n    command: npx eslint .\n    cwd: web\n    timeout_s: 60\n    env: {CI: '1'}\n    when: [after_coder, before_commit]\n    required: false\n    kind: lint\n    parser: eslint\n    junit: reports/junit.xml\n",
    ).checks.lint!;
    expect(c).toEqual({
      command: "npx eslint .",
      cwd: "web",
      timeout_s: 60,
      env: { CI: "1" },
      when: ["after_coder", "before_commit"],
      required: false,
      kind: "lint",
      parser: "eslint",
      junit: "reports/junit.xml",
    });
  });

  test("an unknown field is an error naming its path and the close key", () => {
    const e = loadError("checks:\n  test:\n    command: npm test\n    timeout: 30\n");
    expect(e.message).toContain("checks.test.timeout: unknown key — did you mean timeout_s?");
  });

  test("a bad `when`, a missing command, a cwd outside the repository and a bad name are errors with their paths", () => {
    expect(loadError("checks:\n  test:\n    command: x\n    when: [after_review]\n").message).toContain("checks.test.when.0");
    expect(loadError("checks:\n  test:\n    cwd: web\n").message).toContain("checks.test.command");
    expect(loadError("checks:\n  test:\n    command: x\n    cwd: ../elsewhere\n").message).toContain("checks.test.cwd: must stay inside the repository");
    expect(loadError("checks:\n  test:\n    command: x\n    cwd: /tmp\n").message).toContain("checks.test.cwd: must be relative to the repository root");
    expect(loadError("checks:\n  'a b':\n    command: x\n").message).toContain("must be a plain name");
  });
});

describe("CheckResult", () => {
  const base = {
    name: "test",
    command: "npm test",
    kind: "test",
    when: "after_implementation",
    round: 0,
    status: "failed",
    exit_code: 1,
    duration_ms: 1200,
    started_at: "2026-11-28T15:00:00.000Z",
    finished_at: "2026-11-28T15:00:01.200Z",
    log: "checks/r0-test.log",
    tail: ["FAIL"],
    findings: [{ check: "test", file: "src/a.ts", line: 3, message: "expected 1" }],
    required: true,
    truncated: false,
  } as const;

  test("round-trips through JSON (state.json, the run API) and defaults failing_lines", () => {
    const r = CheckResult.parse(base);
    expect(r.failing_lines).toEqual([]);
    expect(CheckResult.parse(JSON.parse(JSON.stringify(r)))).toEqual(r);
  });

  test("refuses an unknown status and a fractional line", () => {
    expect(CheckResult.safeParse({ ...base, status: "flaky" }).success).toBe(false);
    expect(CheckResult.safeParse({ ...base, findings: [{ check: "t", line: 1.5, message: "m" }] }).success).toBe(false);
  });

  test("only a required, failing, not pre-existing result blocks", () => {
    expect(checkBlocks({ required: true, status: "failed" })).toBe(true);
    expect(checkBlocks({ required: true, status: "timed_out", pre_existing: false })).toBe(true);
    expect(checkBlocks({ required: true, status: "failed", pre_existing: true })).toBe(false);
    expect(checkBlocks({ required: false, status: "failed" })).toBe(false);
    expect(checkBlocks({ required: true, status: "passed" })).toBe(false);
  });

  test("CheckSpec refuses unknown fields on its own", () => {
    expect(CheckSpec.safeParse({ command: "x", retries: 2 }).success).toBe(false);
  });
});

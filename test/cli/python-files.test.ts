/**
 * #28: files shaped the way the Python agentmux writes them (its contracts and their examples)
 * are accepted by the compiled binary where nothing is lost, and what its loader refuses is
 * refused here too, named by field.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, makeTmpDir, removeDir } from "../helpers/tmp.ts";

let dir: string;
beforeEach(() => {
  dir = makeTmpDir("amx-python-files-");
});
afterEach(() => removeDir(dir));

function validate(file: string) {
  const r = Bun.spawnSync([BINARY, "validate", file], { cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

// the Python contract's plan example, with the review_strategy its contract renders into planner prompts
const PYTHON_PLAN = `version: 2
plan_overview: |
  Add JWT authentication to the API. Covers token generation, validation
  middleware, and protected route guards.
needs_design: false
needs_docs: true
doc_files: [docs/auth.md]
review_strategy:
  severity: medium
  focus: [security, testing]
groups:
  - group_id: auth-core
    mode: serial
    plans:
      - index: 1
        name: JWT token service
subplans:
  - index: 1
    title: JWT token service
    scope: Token generation and validation logic
    owned_files: [src/auth/tokens.py, tests/test_tokens.py]
    dependencies: None
    implementation_approach: Use PyJWT with HS256.
    acceptance_criteria: Tokens round-trip and expired tokens are refused.
    tasks:
      - Write failing tests for token generation
      - Implement generate_token and validate_token
`;

describe.skipIf(!Bun.file(BINARY).size)("Python agentmux files through agentmux validate (compiled binary)", () => {
  test("plan.yaml with review_strategy.focus is valid; a severity outside low/medium/high is named", () => {
    const f = join(dir, "plan.yaml");
    writeFileSync(f, PYTHON_PLAN);
    expect(validate(f)).toEqual({ code: 0, out: `✓ ${f}: valid plan\n`, err: "" });
    writeFileSync(f, PYTHON_PLAN.replace("severity: medium", "severity: HIGH"));
    expect(validate(f).code).toBe(0);
    writeFileSync(f, PYTHON_PLAN.replace("severity: medium", "severity: urgent"));
    const r = validate(f);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${f}: review_strategy.severity:`);
    expect(r.out).toContain('"medium"');
  });

  test("approval.json without exclude_files (the Python tool reads it as none) is valid", () => {
    const f = join(dir, "approval.json");
    writeFileSync(f, JSON.stringify({ action: "approve" }));
    expect(validate(f)).toEqual({ code: 0, out: `✓ ${f}: valid approval\n`, err: "" });
    writeFileSync(f, JSON.stringify({ action: "approve", commit_message: "feat: x" }));
    expect(validate(f).code).toBe(0);
  });

  test("a review with severities in capitals, as the seeds write them, is valid; a made-up one is named", () => {
    const f = join(dir, "review_reviewer_logic.yaml");
    const review = (sev: string) =>
      `verdict: fail\nsummary: Token expiry is not handled.\nfindings:\n  - location: src/auth/tokens.py:34\n    issue: expired tokens are accepted\n    severity: ${sev}\n    recommendation: check the exp claim\n  - issue: no test for expiry\n    severity: High\n    recommendation: add one\n`;
    writeFileSync(f, review("CRITICAL"));
    expect(validate(f)).toEqual({ code: 0, out: `✓ ${f}: valid review\n`, err: "" });
    writeFileSync(f, review("BLOCKER"));
    const r = validate(f);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${f}: findings[0].severity:`);
  });

  test("execution_plan.yaml: the Python loader's shape is valid; a duplicate group id and a missing plan file are named", () => {
    const planning = join(dir, "04_planning");
    mkdirSync(planning);
    const f = join(planning, "execution_plan.yaml");
    writeFileSync(join(planning, "plan_1.md"), "# Plan 1\n");
    writeFileSync(join(planning, "plan_2.md"), "# Plan 2\n");
    // no needs_design / needs_docs / doc_files: the Python loader reads only the groups
    writeFileSync(
      f,
      "groups:\n  - group_id: core\n    mode: serial\n    plans:\n      - {file: plan_1.md, name: Core}\n  - group_id: api\n    mode: parallel\n    plans:\n      - {file: plan_2.md, name: API}\n",
    );
    expect(validate(f)).toEqual({ code: 0, out: `✓ ${f}: valid execution_plan\n`, err: "" });

    writeFileSync(
      f,
      "groups:\n  - group_id: core\n    mode: serial\n    plans:\n      - {file: plan_1.md, name: Core}\n  - group_id: core\n    mode: serial\n    plans:\n      - {file: plan_2.md, name: API}\n",
    );
    expect(validate(f)).toMatchObject({ code: 1, out: `${f}: groups[1].group_id: duplicate group_id "core"\n` });

    writeFileSync(
      f,
      "groups:\n  - group_id: core\n    mode: serial\n    plans:\n      - {file: plan_1.md, name: Core}\n      - {file: plan_3.md, name: Missing}\n",
    );
    expect(validate(f)).toMatchObject({ code: 1, out: `${f}: groups[0].plans[1].file: plan_3.md does not exist in ${planning}\n` });
  });
});

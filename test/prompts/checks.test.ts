import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { renderPrompt } from "../../src/prompts/render.ts";
import type { CheckOutcome, CheckRun } from "../../src/schema/check-runs.ts";
import { removeDir } from "../helpers/tmp.ts";
import { caseFor, makeSession, options, type Fixture } from "./fixture.ts";

/** #26: reviewers see what agentmux's own checks said; the fixer sees each failing check's findings in its code. */
let f: Fixture;
afterEach(() => removeDir(f.root));

const run = (id: number, round: number, results: CheckRun["results"]): CheckRun => ({
  id,
  when: "after_implementation",
  round,
  names: Object.keys(results),
  started_at: "2024-01-01T00:00:00.000Z",
  results,
});
const outcome = (over: Partial<CheckOutcome>): CheckOutcome => ({
  status: "failed",
  command: "npm test",
  required: true,
  exit_code: 1,
  duration_ms: 900,
  failures: 1,
  log: "06_checks/run_1/test.log",
  file: "06_checks/run_1/test.json",
  finished_at: "2024-01-01T00:01:00.000Z",
  ...over,
});

test("the review prompt lists the round's check results; none yet says they run meanwhile", () => {
  f = makeSession();
  f.write("state.json", JSON.stringify({ review_iteration: 0 }));
  expect(renderPrompt(options(f, caseFor("reviewer_logic")))).toContain("No results yet: agentmux runs the project's checks while you review");
  f.write(
    "state.json",
    JSON.stringify({
      review_iteration: 0,
      checks: [run(1, 0, { test: outcome({}), lint: outcome({ command: "npm run lint", required: false, failures: 3 }) })],
    }),
  );
  const out = renderPrompt(options(f, caseFor("reviewer_logic")));
  expect(out).toContain("- `test` (`npm test`): failed (exit 1), 1 failure(s) — output in `06_checks/run_1/test.log`");
  expect(out).toContain("- `lint` (`npm run lint`): failed (exit 1), 3 failure(s) — advisory");
});

test("the fix prompt shows the previous round's blocking check, its findings anchored in the code, and leaves out pre-existing ones", () => {
  f = makeSession();
  mkdirSync(dirname(join(f.workDir, "test/a.test.js")), { recursive: true });
  writeFileSync(join(f.workDir, "test/a.test.js"), "l1\nl2\nl3\nl4\nl5\n");
  const findings = [
    { check: "test", file: "test/a.test.js", line: 3, message: "adds two numbers" },
    { check: "test", message: "1 test failed" },
  ];
  f.write(
    "state.json",
    JSON.stringify({ review_iteration: 1, checks: [run(1, 0, { test: outcome({ findings }), old: outcome({ command: "make legacy", pre_existing: true }) })] }),
  );
  const out = renderPrompt(options(f, caseFor("fix")));
  const section = out.slice(out.indexOf("## Failing checks"), out.indexOf("## Background"));
  expect(section).toContain("### Check `test`: failed (exit 1), 1 failure(s)");
  expect(section).toContain("#### line 3 · check test · must pass");
  expect(section).toContain("▶ 3 │ l3");
  expect(section).toContain("- 1 test failed");
  expect(section).not.toContain("make legacy");
  f.write("state.json", JSON.stringify({ review_iteration: 1 }));
  expect(renderPrompt(options(f, caseFor("fix")))).toContain("No check fails in this round.");
});

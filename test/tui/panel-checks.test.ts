import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckRun } from "../../src/schema/check-runs.ts";
import { awaitingApproval, PASSED_REVIEW } from "./fixtures.ts";
import { screensScope } from "./tmux-screen.ts";

setDefaultTimeout(60_000);

/**
 * #26: the approval panel shows the checks agentmux ran (the latest round), `c` reads a check's
 * output in the panel's viewer, and approving over a required check that still fails asks first.
 */
const scope = screensScope();
const { dirs, screen } = scope;

const outcome = (status: "passed" | "failed", over: object = {}) => ({
  status,
  command: status === "passed" ? "npm test" : "npm run lint",
  required: true,
  exit_code: status === "passed" ? 0 : 1,
  duration_ms: 12_300,
  failures: status === "passed" ? 0 : 3,
  log: "06_checks/run_1/x.log",
  file: "06_checks/run_1/x.json",
  finished_at: "2024-01-01T00:10:00.000Z",
  ...over,
});

function completing(lint: "passed" | "failed") {
  const run: CheckRun = {
    id: 1,
    when: "after_implementation",
    round: 0,
    names: ["test", "lint"],
    started_at: "2024-01-01T00:09:00.000Z",
    results: { test: outcome("passed", { log: "06_checks/run_1/test.log" }), lint: outcome(lint, { log: "06_checks/run_1/lint.log" }) },
  };
  const { repo, dir } = awaitingApproval("amx-panel-checks-", dirs, { "b.txt": "b\n" }, { ...PASSED_REVIEW, checks: [run], check_runs_started: 1 });
  mkdirSync(join(dir, "06_checks/run_1"), { recursive: true });
  writeFileSync(join(dir, "06_checks/run_1/lint.log"), "src/a.js\n  4:7  error  'x' is never used  no-unused-vars\n\u001b]0;pwned\u0007\n✖ 3 problems\n");
  writeFileSync(join(dir, "06_checks/run_1/test.log"), "# pass 4\n");
  return { repo, dir };
}

test("the Checks section, c reads the failing check's output, and a asks before committing over it", async () => {
  const { repo, dir } = completing("failed");
  const scr = screen();
  await scr.start([scope.bin, "panel", dir], repo, { width: 100, height: 30 });
  const panel = await scr.until("the panel with its checks", (x) => x.includes("Checks (c: output)") && x.includes("a approve"));
  expect(panel).toContain("✓ test 12 s");
  expect(panel).toMatch(/› ✗ lint 3 failures +blocks the commit/);
  expect(panel).toContain("c check output");
  // c: the blocking check's own output, in the viewer, with its escape sequence made inert
  await scr.keys("c");
  const log = await scr.until("lint's output", (x) => x.includes("no-unused-vars"));
  expect(log).toContain("lint: npm run lint (2 of 2; c again: the next)");
  expect(log).toContain("✖ 3 problems");
  expect(log).not.toContain("pwned\u0007");
  await scr.keys("Escape");
  await scr.until("back in the panel", (x) => x.includes("Checks (c: output)") && !x.includes("no-unused-vars"));
  // a: asked first; n keeps the panel and writes nothing
  await scr.keys("a");
  await scr.until("the question", (x) => x.includes("The required check lint still fails. Approve and commit anyway? y/N"));
  await scr.keys("n");
  await scr.until("back in the panel", (x) => x.includes("Checks (c: output)") && !x.includes("Approve and commit anyway"));
  expect(existsSync(join(dir, "08_completion/approval.json"))).toBe(false);
  await scr.keys("a");
  await scr.until("the question again", (x) => x.includes("Approve and commit anyway? y/N"));
  await scr.keys("y");
  await scr.until("the panel gone", (x) => x.includes("EXIT=0"));
  expect(JSON.parse(readFileSync(join(dir, "08_completion/approval.json"), "utf8"))).toMatchObject({ action: "approve" });
});

test("with every required check passing, a approves at once", async () => {
  const { repo, dir } = completing("passed");
  const scr = screen();
  await scr.start([scope.bin, "panel", dir], repo, { width: 100, height: 30 });
  const panel = await scr.until("the panel", (x) => x.includes("Checks (c: output)") && x.includes("a approve"));
  expect(panel).not.toContain("blocks the commit");
  await scr.keys("a");
  await scr.until("approved", (x) => x.includes("EXIT=0"));
  expect(existsSync(join(dir, "08_completion/approval.json"))).toBe(true);
});

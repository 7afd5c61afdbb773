/**
 * A check's mark follows one rule wherever it is shown (report/checks.ts checkMark): ✓ passed,
 * ✗ blocks, ! fails without blocking (advisory, pre-existing), … running, · queued. Through the
 * binary: `agentmux checks` used to mark an advisory failure ✗ (the monitor and the panel said !),
 * and `agentmux status | cat` showed a running check with one frozen frame of the monitor's spinner.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import type { CheckOutcome } from "../../src/schema/check-runs.ts";
import type { CheckResult } from "../../src/schema/checks.ts";
import { checkMark, checksSnapshot } from "../../src/report/checks.ts";
import { checkHeadline } from "../../src/views/checks.ts";
import { plainLine } from "../../src/launcher/progress.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { stateIn, writeSession } from "../tui/fixtures.ts";

const scope = binaryScope();
let project: string;
beforeEach(() => {
  project = makeTmpDir("amx-check-marks-");
  mkdirSync(join(project, ".agentmux"));
});
afterEach(() => removeDir(project));

const cli = (...args: string[]) => {
  const r = Bun.spawnSync([scope.bin, ...args], { cwd: project, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

const outcome = (o: Partial<CheckOutcome>): CheckOutcome => ({
  status: "failed",
  command: "npm run lint",
  required: false,
  exit_code: 1,
  duration_ms: 3000,
  failures: 3,
  log: "06_checks/run_1/lint.log",
  file: "06_checks/run_1/lint.json",
  finished_at: new Date(Date.now() - 60_000).toISOString(),
  ...o,
});

test("agentmux checks: an advisory failure is ! (it blocks nothing), a required one ✗", () => {
  writeFileSync(
    join(project, ".agentmux/config.yaml"),
    stringify({ version: 2, checks: { lint: { command: "exit 1", required: false }, test: { command: "exit 1" } } }),
  );
  const r = cli("checks");
  expect(r.code).toBe(1);
  const lines = r.out.split("\n");
  expect(lines.find((l) => / lint /.test(l))).toMatch(/^! lint exit 1 in .*\(advisory\)$/);
  expect(lines.find((l) => / test /.test(l))).toMatch(/^✗ test exit 1 in /);
});

test("agentmux status without a terminal: a running check reads '… test running', never a frozen spinner frame", () => {
  const id = "20250301-100000-checks";
  const now = Date.now();
  writeSession(
    project,
    id,
    stateIn("reviewing", {
      checks: [
        {
          id: 1,
          when: "after_implementation",
          round: 0,
          names: ["lint", "test"],
          started_at: new Date(now - 70_000).toISOString(),
          running: { test: new Date(now - 4_000).toISOString() },
          results: { lint: outcome({}) },
        },
      ],
    }),
  );
  const r = cli("status", id);
  expect(r.code).toBe(0);
  expect(r.out).not.toMatch(SPINNER);
  expect(r.out).toMatch(/^ {2}… test running \d/m);
  expect(r.out).toMatch(/^ {2}! lint 3 failures · advisory$/m);
});

test("every surface marks a check by the one rule, for each outcome, requirement and base comparison", () => {
  for (const status of ["passed", "failed", "timed_out", "error"] as const)
    for (const required of [true, false])
      for (const pre_existing of [false, true]) {
        const o = outcome({ status, required, pre_existing });
        const snap = checksSnapshot(
          stateIn("reviewing", { checks: [{ id: 1, when: "after_implementation", round: 0, names: ["c"], started_at: o.finished_at, results: { c: o } }] }),
        ).results[0]!;
        const mark = checkMark(snap);
        const result = { ...o, name: "c", when: "after_implementation", round: 0, findings: [], failing_lines: [] } as unknown as CheckResult;
        expect([status, required, pre_existing, checkHeadline(result)[0]]).toEqual([status, required, pre_existing, mark]);
        const line = plainLine(
          {
            kind: "check",
            name: "c",
            round: 0,
            run: 1,
            status,
            required,
            pre_existing,
            blocking: snap.blocking,
            duration_ms: 3000,
            failures: 3,
            log: o.log,
            at: o.finished_at,
          },
          { agents: [], done_agents: [] } as never,
        )!;
        expect([status, required, pre_existing, line.slice(10, 11)]).toEqual([status, required, pre_existing, mark]);
      }
});

import { CheckResult, type CheckResultInput } from "../../src/schema/checks.ts";

/** A check agentmux ran (a failed `npm test` of round 0 unless `over` says otherwise), parsed as the schema reads it. */
export const checkResult = (over: Partial<CheckResultInput>): CheckResult =>
  CheckResult.parse({
    name: "test",
    command: "npm test",
    kind: "test",
    when: "after_implementation",
    round: 0,
    status: "failed",
    exit_code: 1,
    duration_ms: 10,
    started_at: "2026-11-28T15:00:00.000Z",
    finished_at: "2026-11-28T15:00:00.010Z",
    log: "checks/x.log",
    tail: [],
    findings: [],
    required: true,
    truncated: false,
    ...over,
  });

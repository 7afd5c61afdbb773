import type { CheckResult } from "../schema/checks.ts";
import type { CheckOutcome } from "../schema/check-runs.ts";

/** How many findings and output lines of a failing check state.json keeps (the rest is in its files). */
export const KEPT_FINDINGS = 20;
export const KEPT_LINES = 40;
const MAX_LINE = 400;

const clip = (l: string) => (l.length > MAX_LINE ? `${l.slice(0, MAX_LINE - 1)}…` : l);

/**
 * What state.json keeps of a check's result: the figures, and for a failing check its first
 * findings and the lines that matter (its failing lines, else the tail of its output).
 */
export function outcomeOf(r: CheckResult, file: string): CheckOutcome {
  const failed = r.status !== "passed";
  const lines = (r.failing_lines.length ? r.failing_lines : r.tail).slice(-KEPT_LINES).map(clip);
  return {
    status: r.status,
    command: r.command,
    kind: r.kind,
    required: r.required,
    ...(r.pre_existing !== undefined ? { pre_existing: r.pre_existing } : {}),
    exit_code: r.exit_code,
    duration_ms: r.duration_ms,
    failures: failed ? r.findings.length || (r.tests?.failing ?? 0) : 0,
    ...(failed && r.findings.length ? { findings: r.findings.slice(0, KEPT_FINDINGS).map((f) => ({ ...f, message: clip(f.message) })) } : {}),
    ...(failed && lines.length ? { tail: lines } : {}),
    ...(r.tests ? { tests: r.tests } : {}),
    ...(r.error ? { error: clip(r.error) } : {}),
    log: r.log,
    file,
    finished_at: r.finished_at,
  };
}

import type { CheckFinding, CheckResult } from "../schema/checks.ts";

/** A finding as it would read on another commit: lines move, so numbers do not count. */
const findingKey = (f: CheckFinding) => `${f.file ?? ""}\0${f.message.replace(/\d+/g, "#")}`;
const linesKey = (lines: readonly string[]) => lines.map((l) => l.replace(/\d+(\.\d+)?/g, "#").trim()).join("\n");

/**
 * A check's result compared with the same check on the base commit. A failure is pre-existing
 * when the base fails the same way: every finding it names is also a finding of the base (same
 * file and message, line numbers aside), or — when neither names any — the same status and the
 * same failing lines (and never more failing tests than the base). Findings the base shares are marked one by one, so a fix request can keep
 * only the new ones. A base that passed makes the failure new; a base that could not run
 * (status `error`, e.g. its dependencies missing) or was not run says nothing.
 */
export function compareWithBase(current: CheckResult, base: CheckResult | undefined): CheckResult {
  if (current.status === "passed" || !base || base.status === "error") return current;
  if (base.status === "passed") return { ...current, pre_existing: false };
  const known = new Set(base.findings.map(findingKey));
  const findings = current.findings.map((f) => ({ ...f, pre_existing: known.has(findingKey(f)) }));
  const moreFailing = !!current.tests && !!base.tests && current.tests.failing > base.tests.failing;
  const same = moreFailing
    ? false
    : findings.length > 0
      ? findings.every((f) => f.pre_existing)
      : base.findings.length === 0 && base.status === current.status && linesKey(base.failing_lines) === linesKey(current.failing_lines);
  return { ...current, findings, pre_existing: same };
}

/** compareWithBase for each result, with the base result of the same check. */
export function compareAllWithBase(current: readonly CheckResult[], base: readonly CheckResult[]): CheckResult[] {
  const byName = new Map(base.map((b) => [b.name, b]));
  return current.map((r) => compareWithBase(r, byName.get(r.name)));
}

import { checkBlocks, type CheckFinding, type CheckResult } from "../schema/checks.ts";
import { checkMark } from "../report/checks.ts";
import { inertLine } from "../schema/inert-text.ts";
import { duration } from "./time.ts";
import { ellipsize } from "./width.ts";

// under a second, duration() says 0s (or 1s): a check of 632 ms read "passed in 0s"
const took = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : duration(ms));

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function outcome(r: CheckResult): string {
  const tests = r.tests;
  switch (r.status) {
    case "passed":
      return `passed in ${took(r.duration_ms)}${tests ? ` (${plural(tests.total, "test")})` : ""}`;
    case "timed_out":
      return `timed out after ${took(r.duration_ms)}`;
    case "error":
      return `could not run: ${inertLine(r.error ?? "it did not start")}`;
    case "failed": {
      const what =
        tests && tests.failing > 0
          ? `${tests.failing} of ${plural(tests.total, "test")} failing`
          : r.findings.length > 0
            ? plural(r.findings.length + (r.findings_omitted ?? 0), "failure")
            : `exit ${r.exit_code ?? r.signal ?? "?"}`;
      return `${what} in ${took(r.duration_ms)}`;
    }
  }
}

/** `src/a.ts:12:5` — a finding's anchor, or "" when the output named no file. */
export function findingAnchor(f: Pick<CheckFinding, "file" | "line" | "column">): string {
  if (!f.file) return "";
  return [f.file, f.line, f.line !== undefined ? f.column : undefined].filter((x) => x !== undefined).join(":");
}

/** The one line of a check's result: `✓ test passed in 12s (45 tests)`, `! lint 3 failures in 4s (advisory)`. */
export function checkHeadline(r: CheckResult): string {
  const notes = [r.required ? "" : "advisory", r.pre_existing ? "already failing on the base" : "", r.truncated ? "output truncated" : ""].filter(Boolean);
  return `${checkMark({ state: r.status, blocking: checkBlocks(r) })} ${inertLine(r.name)} ${outcome(r)}${notes.length ? ` (${notes.join(", ")})` : ""}`;
}

/**
 * A check's result as lines for a terminal: its headline, then what failed — each finding's
 * anchor and message, or the failing lines when the output named no file — all made inert and
 * cut to `width`. Never the raw output: that stays in its log.
 */
export function checkResultLines(r: CheckResult, opts: { width?: number; maxItems?: number } = {}): string[] {
  const width = opts.width ?? 100;
  const max = opts.maxItems ?? 8;
  const out = [ellipsize(checkHeadline(r), width)];
  if (r.status === "passed") return out;
  const items =
    r.findings.length > 0
      ? r.findings.map((f) => `${findingAnchor(f) ? `${findingAnchor(f)} ` : ""}${f.pre_existing ? "(on the base too) " : ""}${f.message}`)
      : r.failing_lines.map((l) => `│ ${l}`);
  for (const item of items.slice(0, max)) out.push(ellipsize(`    ${inertLine(item)}`, width));
  const more = Math.max(0, items.length - max) + (r.findings.length > 0 ? (r.findings_omitted ?? 0) : 0);
  if (more > 0) out.push(`    … ${more} more`);
  return out;
}

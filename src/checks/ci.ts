import { readFileSync } from "node:fs";
import type { BoundedResult } from "../effects/process/bounded.ts";
import type { GhPrCheck } from "../schema/ci.ts";
import { CheckResult, MAX_FINDINGS } from "../schema/checks.ts";
import { inertLine, inertText } from "../schema/inert-text.ts";
import { failingLines } from "./failing-lines.ts";
import { checkKind } from "./kind.ts";
import { parseCheckOutput } from "./parsers/index.ts";

// `gh run view --log-failed` lines: `<job>\t<step>\t<timestamp> <text>`
const GH_LOG_PREFIX = /^[^\t\n]*\t[^\t\n]*\t\d{4}-\d\d-\d\dT[\d:.]+Z ?/gm;
// GitHub-hosted runners' checkout folders: /home/runner/work/<repo>/<repo>/, D:\a\<repo>\<repo>\, /Users/runner/work/…
const WORKSPACE = /(?:\/home\/runner\/work|\/Users\/runner\/work|[A-Z]:\\a)[\\/][^\\/\s]+[\\/][^\\/\s]+[\\/]/g;

/** A failed job's log as its tools printed it: gh's job/step/time prefix, the runner's checkout folder and `##[error]` markers gone. */
export function cleanJobLog(text: string): string {
  return inertText(text)
    .replace(GH_LOG_PREFIX, "")
    .replace(WORKSPACE, "")
    .replace(/##\[(error|warning|group|endgroup)\]/g, "");
}

export type CiResultInput = {
  /** the checkout the findings are anchored in */
  root: string;
  round: number;
  /** the job's log as recorded in the result (session-relative) */
  logName: string;
  /** ISO time, for a check with no log */
  at: string;
};

/**
 * A failing CI check as a CheckResult (`when: "ci"`), so the fix loop treats it like a check
 * agentmux ran: findings with anchors in the checkout read from the job's log with the same
 * parsers, failing lines, its link in `error`. A check that is not a GitHub Actions job (no log)
 * gets its description.
 */
export function ciCheckResult(check: GhPrCheck, log: BoundedResult | null, logPath: string | null, input: CiResultInput): CheckResult {
  const name = `ci/${inertLine(check.name).replace(/\s+/g, " ").trim()}`;
  const text = log && logPath ? cleanJobLog(readOptional(logPath)) : "";
  const parsed = parseCheckOutput(text, { check: name, parser: "auto", root: input.root, cwd: "." });
  const tail = text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(-40)
    .map(inertLine);
  const lines = tail.length ? failingLines(tail) : [inertLine(check.description || `${check.bucket || check.state}: see ${check.link}`)];
  const label = [check.workflow, check.name].filter(Boolean).map(inertLine).join(" / ");
  return CheckResult.parse({
    name,
    command: `CI: ${label}`,
    kind: checkKind(check.name, { command: `${check.workflow} ${check.name}` }),
    when: "ci",
    round: input.round,
    status: /timed.?out/i.test(check.state) ? "timed_out" : "failed",
    exit_code: null,
    duration_ms: log?.durationMs ?? 0,
    started_at: log?.startedAt ?? input.at,
    finished_at: log?.finishedAt ?? input.at,
    log: log ? input.logName : "",
    tail,
    failing_lines: lines,
    findings: parsed.findings.slice(0, MAX_FINDINGS),
    ...(parsed.findings.length > MAX_FINDINGS ? { findings_omitted: parsed.findings.length - MAX_FINDINGS } : {}),
    ...(parsed.tests ? { tests: parsed.tests } : {}),
    required: true,
    truncated: log?.truncated ?? false,
    error: `${inertLine(check.state || check.bucket)} on CI: ${inertLine(check.link)}`,
  });
}

function readOptional(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

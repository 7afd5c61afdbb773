import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runBounded, type BoundedRunner } from "../effects/process/bounded.ts";
import { inertText } from "../schema/inert-text.ts";
import { CheckResult, MAX_FINDINGS, type CheckSpec, type CheckStatus } from "../schema/checks.ts";
import { failingLines } from "./failing-lines.ts";
import { checkKind } from "./kind.ts";
import { parseCheckOutput } from "./parsers/index.ts";

export type CheckRunInput = {
  /** the checkout it runs in: the repository root, or the run's worktree */
  root: string;
  /** where its output goes (absolute) */
  logPath: string;
  /** its log as recorded in the result: session-relative (default: logPath) */
  logName?: string;
  round: number;
  when: CheckResult["when"];
  /** the run's environment (AGENTMUX_WORK_DIR, …); the check's own env is layered over it */
  env?: Record<string, string>;
  /** the run's port offset (worktree runs): AGENTMUX_PORT_OFFSET */
  portOffset?: number;
  run?: BoundedRunner;
};

/**
 * Run one check on the bounded runner (`sh -c`, own process group, whole group killed at
 * `timeout_s` and after its exit) and read what it produced: status, findings with anchors, test
 * counts, the tail and the lines that matter, all made inert. Never throws for the command's
 * sake: a command that cannot start is status `error`.
 */
export async function runCheck(name: string, spec: CheckSpec, input: CheckRunInput): Promise<CheckResult> {
  const env = {
    ...input.env,
    ...(input.portOffset !== undefined ? { AGENTMUX_PORT_OFFSET: String(input.portOffset) } : {}),
    AGENTMUX_CHECK: name,
    ...spec.env,
  };
  const r = await (input.run ?? runBounded)({
    argv: ["sh", "-c", spec.command],
    cwd: join(input.root, spec.cwd),
    env,
    timeoutMs: spec.timeout_s * 1000,
    logPath: input.logPath,
    leftovers: "kill",
  });
  // sh's 127: the command (or a program it names) was not found — it never ran
  const notFound = r.exitCode === 127 && r.tail.some((l) => /not found|No such file/i.test(l));
  const status: CheckStatus = r.spawnError || notFound ? "error" : r.timedOut ? "timed_out" : r.exitCode === 0 ? "passed" : "failed";
  const junit = spec.junit ? readOptional(join(input.root, spec.cwd, spec.junit)) : null;
  const parsed = r.spawnError
    ? undefined
    : parseCheckOutput(readLog(input.logPath), { check: name, parser: spec.parser, root: input.root, cwd: spec.cwd, junit });
  const tests = parsed?.tests;
  const findings = status === "passed" ? [] : (parsed?.findings ?? []);
  const error =
    r.spawnError ??
    (notFound
      ? `not found: ${r.tail.findLast((l) => /not found|No such file/i.test(l))}`
      : r.timedOut
        ? `did not finish within ${spec.timeout_s} s: its process group was killed`
        : r.logProblem
          ? `its output log is incomplete: ${r.logProblem}`
          : undefined);
  return CheckResult.parse({
    name,
    command: spec.command,
    kind: checkKind(name, spec),
    when: input.when,
    round: input.round,
    status,
    exit_code: r.exitCode,
    ...(r.signal ? { signal: r.signal } : {}),
    duration_ms: r.durationMs,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
    log: input.logName ?? input.logPath,
    tail: r.tail,
    failing_lines: status === "passed" ? [] : failingLines(r.tail),
    findings: findings.slice(0, MAX_FINDINGS),
    ...(findings.length > MAX_FINDINGS ? { findings_omitted: findings.length - MAX_FINDINGS } : {}),
    ...(tests ? { tests } : {}),
    required: spec.required,
    truncated: r.truncated,
    ...(error ? { error } : {}),
  });
}

function readLog(path: string): string {
  return inertText(readOptional(path) ?? "");
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

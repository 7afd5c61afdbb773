import { join } from "node:path";
import { runBounded, type BoundedRunner } from "../effects/process/bounded.ts";
import { CheckResult, type CheckStatus } from "../schema/checks.ts";
import { checkKind } from "../checks/kind.ts";
import type { CheckEngine, CheckJob } from "./checks.ts";

/** Run one check with the bounded runner in the run's working tree (its own process group, capped log, timeout). */
export async function runCheckJob(job: CheckJob, run: BoundedRunner = runBounded): Promise<CheckResult> {
  const r = await run({
    argv: ["sh", "-c", job.spec.command],
    cwd: join(job.workDir, job.spec.cwd),
    timeoutMs: job.spec.timeout_s * 1000,
    logPath: job.logPath,
    leftovers: "kill",
    env: { ...job.env, ...job.spec.env },
  });
  const status: CheckStatus = r.spawnError ? "error" : r.timedOut ? "timed_out" : r.exitCode === 0 ? "passed" : "failed";
  return CheckResult.parse({
    name: job.name,
    command: job.spec.command,
    kind: checkKind(job.name, job.spec),
    when: job.when,
    round: job.round,
    status,
    exit_code: r.exitCode,
    ...(r.signal ? { signal: r.signal } : {}),
    duration_ms: r.durationMs,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
    log: job.logRel,
    tail: r.tail,
    findings: [],
    required: job.spec.required,
    truncated: r.truncated,
    ...(r.spawnError ? { error: r.spawnError } : {}),
  });
}

/** The engine the orchestrator's checks service drives. */
export function checkEngine(): CheckEngine {
  return { run: (job) => runCheckJob(job) };
}

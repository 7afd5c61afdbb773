import { join } from "node:path";
import { writeSessionFile } from "../session/file-io.ts";
import { checkResultFile } from "../protocol/files.ts";
import type { Logger } from "../effects/log.ts";
import type { Config } from "../schema/config.ts";
import type { Effect } from "../schema/effects.ts";
import type { Event } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import { checkBlocks, type CheckResult, type CheckSpec, type CheckWhen } from "../schema/checks.ts";
import { checkLogPath, checkResultPath } from "../schema/check-runs.ts";
import { outcomeOf } from "./check-outcome.ts";
import { writeInspectorRecord } from "./inspector-record.ts";
import { checkGroups } from "./check-groups.ts";
import { Later } from "./outcome.ts";

/** What one check needs to run: where, with which env, into which log. */
export type CheckJob = {
  name: string;
  spec: CheckSpec;
  when: CheckWhen;
  round: number;
  /** the run's working tree (its worktree, or the checkout of an in-place run) */
  workDir: string;
  /** absolute path of its output log */
  logPath: string;
  /** session-relative path of the log (recorded in the result) */
  logRel: string;
  /** the run's env: AGENTMUX_PORT_OFFSET and the folders (runEnv) */
  env: Record<string, string>;
};

/**
 * The engine the service drives (src/checks/): run one check, and for a blocking failure compare
 * it with the run's base commit (a separate worktree), marking `pre_existing`.
 */
export type CheckEngine = {
  /** `abort`: the orchestrator is ending; the check's whole process group is killed. `started`: its group's leader pid */
  run(job: CheckJob, abort: AbortSignal, started: (pid: number) => void): Promise<CheckResult>;
  /** absent: failures are not compared with the base (every failure counts as the run's) */
  compareWithBase?(
    job: CheckJob,
    failing: CheckResult,
    base: { mainRepoDir: string; commit: string; sessionDir: string },
    abort: AbortSignal,
  ): Promise<CheckResult>;
};

export type ChecksServiceContext = {
  sessionDir: string;
  workDir: string;
  mainRepoDir: string;
  config: Config;
  env: Record<string, string>;
  state: () => State;
  log: Logger;
  engine: CheckEngine;
};

const now = () => new Date().toISOString();

/**
 * The daemon's checks service: interprets `run_checks`. Batches run one after another and the
 * checks of a batch in order (they share the working tree and the CPU with the agents); a
 * batch's outcome is its check_started and check_finished events to come. Nothing here blocks the loop.
 */
export class ChecksService {
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  /** aborted when the orchestrator ends: a check running then is killed with its whole group (it runs again on resume) */
  private readonly ending = new AbortController();

  constructor(private readonly ctx: ChecksServiceContext) {
    // what an orchestrator killed outright left running goes before anything runs again
    this.queue = checkGroups
      .reap(ctx.sessionDir, ctx.log)
      .catch((e) => ctx.log(`could not reap leftover checks: ${(e as Error).message}`, { level: "warn", event: "check" }));
  }

  /** Queue a batch; returns at once, with its events to come. */
  start(effect: Extract<Effect, { type: "run_checks" }>): Later {
    const later = new Later();
    this.queue = this.queue
      .then(() => this.batch(effect, (e) => later.put(e)))
      .catch((e) =>
        this.ctx.log(`checks batch ${effect.run} failed: ${(e as Error).message}`, {
          level: "error",
          event: "check",
          error: (e as Error).stack,
          data: { run: effect.run },
        }),
      )
      .finally(() => later.end());
    return later;
  }

  /** The orchestrator is ending: report nothing more (a check cut off now runs again on resume). */
  stop(): void {
    this.stopped = true;
    this.ending.abort();
  }

  /** Resolves when every queued batch has finished (tests, the bench). */
  idle(): Promise<void> {
    return this.queue;
  }

  private async batch(effect: Extract<Effect, { type: "run_checks" }>, put: (e: Event) => void): Promise<void> {
    for (const name of effect.names) {
      if (this.stopped) return;
      const result = await this.one(effect.run, name, effect.when, effect.round, put);
      if (this.stopped) return;
      const file = checkResultPath(effect.run, name);
      writeSessionFile(this.ctx.sessionDir, checkResultFile(file), result);
      this.ctx.log(`check ${name} ${result.status}${result.pre_existing ? " (pre-existing on the base)" : ""} in ${(result.duration_ms / 1000).toFixed(1)} s`, {
        event: "check",
        data: {
          run: effect.run,
          name,
          status: result.status,
          exit_code: result.exit_code,
          duration_ms: result.duration_ms,
          pre_existing: result.pre_existing === true,
          log: result.log,
        },
      });
      // the Inspector record is current before the result can move the run (the commit's gate reads it)
      await writeInspectorRecord({
        sessionDir: this.ctx.sessionDir,
        workDir: this.ctx.workDir,
        state: this.ctx.state(),
        extraRun: effect.run,
        log: this.ctx.log,
      });
      put({ type: "check_finished", at: now(), run: effect.run, name, result: outcomeOf(result, file) });
    }
  }

  private async one(run: number, name: string, when: CheckWhen, round: number, put: (e: Event) => void): Promise<CheckResult> {
    const spec = this.ctx.config.checks[name];
    const logRel = checkLogPath(run, name);
    if (!spec) {
      // taken out of the config since the batch started (a resume): reported, never blocking
      const at = now();
      return {
        name,
        command: "",
        kind: "other",
        when,
        round,
        status: "error",
        exit_code: null,
        duration_ms: 0,
        started_at: at,
        finished_at: at,
        log: logRel,
        tail: [],
        failing_lines: [],
        findings: [],
        required: false,
        truncated: false,
        error: `no check named ${name} in the config (checks:) any more`,
      };
    }
    put({ type: "check_started", at: now(), run, name });
    const job: CheckJob = { name, spec, when, round, workDir: this.ctx.workDir, logPath: join(this.ctx.sessionDir, logRel), logRel, env: this.ctx.env };
    const key = `${run}-${name}`;
    const result = await this.ctx.engine.run(job, this.ending.signal, (pid) => checkGroups.started(this.ctx.sessionDir, key, pid));
    checkGroups.finished(this.ctx.sessionDir, key);
    const base = this.ctx.state().base_commit;
    const compare = this.ctx.engine.compareWithBase;
    if (!checkBlocks(result) || !base || !compare || this.stopped) return result;
    try {
      return await compare(job, result, { mainRepoDir: this.ctx.mainRepoDir, commit: base, sessionDir: this.ctx.sessionDir }, this.ending.signal);
    } catch (e) {
      this.ctx.log(`check ${name}: the base commit could not be checked (${(e as Error).message}); the failure counts as the run's`, {
        level: "warn",
        event: "check",
        data: { run, name },
      });
      return result;
    }
  }
}

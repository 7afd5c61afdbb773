import { join } from "node:path";
import type { CheckResult } from "../schema/checks.ts";
import { readOptionalSessionFile, writeSessionFile } from "../session/file-io.ts";
import { checkResultFile } from "../protocol/files.ts";
import { CHECKS_BASE_DIR } from "../schema/check-runs.ts";
import { runCheck } from "../checks/run.ts";
import { runBounded } from "../effects/process/bounded.ts";
import { compareWithBase } from "../checks/compare.ts";
import type { CheckEngine, CheckJob } from "./checks.ts";

/** A base result kept from earlier in the run, when it is for the same command (the base commit does not change). */
function cachedBase(sessionDir: string, rel: string, job: CheckJob): CheckResult | undefined {
  const r = readOptionalSessionFile(sessionDir, checkResultFile(rel));
  return r && r.command === job.spec.command && r.status !== "error" ? r : undefined;
}

/**
 * The engine the orchestrator's checks service drives (src/checks/): a check runs on the bounded
 * runner in the run's working tree; a blocking failure is compared with the same check on the
 * run's base commit (a temporary worktree of it), run once per check and kept in
 * 06_checks/base/<name>.json for the rest of the run.
 */
export function checkEngine(): CheckEngine {
  return {
    run: (job, abort, started) =>
      runCheck(job.name, job.spec, {
        root: job.workDir,
        logPath: job.logPath,
        logName: job.logRel,
        round: job.round,
        when: job.when,
        env: job.env,
        run: (cmd) => runBounded({ ...cmd, abort, onStart: started }),
      }),
    async compareWithBase(job, failing, base, abort) {
      const dir = join(base.sessionDir, CHECKS_BASE_DIR);
      const rel = `${CHECKS_BASE_DIR}/${job.name}.json`;
      let onBase = cachedBase(base.sessionDir, rel, job);
      if (!onBase) {
        // isomorphic-git (the base's worktree) is loaded only when a check fails: the orchestrator stays small
        const { runChecksOnBase } = await import("../checks/base.ts");
        [onBase] = await runChecksOnBase({
          repoDir: base.mainRepoDir,
          baseCommit: base.commit,
          checkout: job.workDir,
          checks: { [job.name]: job.spec },
          logDir: dir,
          logName: CHECKS_BASE_DIR,
          when: job.when,
          env: job.env,
          run: (cmd) => runBounded({ ...cmd, abort }),
        });
        // a base run cut off by the end of the run says nothing: it is not kept
        if (onBase && !abort.aborted) writeSessionFile(base.sessionDir, checkResultFile(rel), onBase);
      }
      return compareWithBase(failing, onBase);
    },
  };
}

import { existsSync, lstatSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { withBaseWorktree } from "../effects/git/base-worktree.ts";
import type { BoundedRunner } from "../effects/process/bounded.ts";
import type { CheckResult, CheckSpec, CheckWhen } from "../schema/checks.ts";
import { runCheck } from "./run.ts";

/** Installed dependencies git does not track: linked from the checkout so the base can run its checks. */
const DEPENDENCY_DIRS = ["node_modules", ".venv", "venv"];

export type BaseRunInput = {
  repoDir: string;
  /** the commit the run started from (state.base_commit) */
  baseCommit: string;
  /** the checkout whose installed dependencies the base borrows (the run's worktree, or the repository) */
  checkout: string;
  checks: Record<string, CheckSpec>;
  /** absolute folder of the base runs' logs: `<logDir>/<name>.log` */
  logDir: string;
  /** their logs as recorded in the results (e.g. session-relative `checks/base`); default logDir */
  logName?: string;
  when: CheckWhen | "manual";
  env?: Record<string, string>;
  portOffset?: number;
  run?: BoundedRunner;
};

/**
 * The same checks on the base commit, in a temporary worktree of it (never the user's checkout
 * or index; removed afterwards whatever happens), with the checkout's installed dependency
 * folders (node_modules, .venv, venv — at the root and in each check's folder) linked in when the
 * base does not track them. What they say feeds compareWithBase.
 */
export async function runChecksOnBase(input: BaseRunInput): Promise<CheckResult[]> {
  return withBaseWorktree(input.repoDir, input.baseCommit, async (base) => {
    linkDependencies(input.checkout, base, [".", ...Object.values(input.checks).map((s) => s.cwd)]);
    const results: CheckResult[] = [];
    for (const [name, spec] of Object.entries(input.checks)) {
      results.push(
        await runCheck(name, spec, {
          root: base,
          logPath: join(input.logDir, `${name}.log`),
          logName: `${input.logName ?? input.logDir}/${name}.log`,
          round: 0,
          when: input.when,
          env: input.env,
          portOffset: input.portOffset,
          run: input.run,
        }),
      );
    }
    return results;
  });
}

function linkDependencies(checkout: string, base: string, folders: string[]): void {
  for (const folder of new Set(folders)) {
    for (const dep of DEPENDENCY_DIRS) {
      const from = join(checkout, folder, dep);
      const to = join(base, folder, dep);
      if (!existsSync(from) || !existsSync(join(base, folder)) || exists(to)) continue;
      symlinkSync(from, to, "dir");
    }
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

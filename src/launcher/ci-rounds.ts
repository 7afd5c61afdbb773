import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ciCheckResult } from "../checks/ci.ts";
import { ciFixRequest } from "../checks/ci-request.ts";
import { ciReplyBody, type CiReply } from "../checks/ci-reply.ts";
import { watchCi } from "../checks/ci-watch.ts";
import { failedJobLog, prChecks } from "../effects/gh-ci.ts";
import { checkoutRemoteBranch } from "../effects/git/fetch.ts";
import { returnToStart, startRefOf } from "../effects/git/run-branch.ts";
import { headCommit } from "../effects/git/repo.ts";
import type { BoundedRunner } from "../effects/process/bounded.ts";
import { runProcess, type Runner } from "../effects/process/run.ts";
import type { Config } from "../schema/config.ts";
import type { CheckResult } from "../schema/checks.ts";
import { SESSIONS_DIR } from "../protocol/paths.ts";
import type { ReviewRound } from "./start.ts";

export type CiRoundsInput = {
  projectDir: string;
  prUrl: string;
  branch: string;
  github: Config["github"];
  out: (line: string) => void;
  /** starts one fix round on the branch (startRun with `round`); its exit code */
  startRound: (round: ReviewRound, request: string, n: number) => Promise<number>;
  gh?: Runner;
  logs?: BoundedRunner;
  ghEnv?: Record<string, string>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

/**
 * Follow a pull request's CI (#26.6): wait for its checks; while one fails and rounds are left,
 * read the failing jobs' logs into findings, reply in the pull request, run a fix round on the
 * same branch (committed and pushed like a review round) and follow CI again. Ends green (0), or
 * "CI still failing after N rounds" / timed out (1), with a reply saying so and the links.
 */
export async function followCiRounds(o: CiRoundsInput): Promise<number> {
  const gh = o.gh ?? runProcess;
  const reply = async (r: CiReply) => {
    const res = await gh(["gh", "pr", "comment", o.prUrl, "--body-file", "-"], {
      cwd: o.projectDir,
      env: { GH_PROMPT_DISABLED: "1", NO_COLOR: "1" },
      stdin: ciReplyBody(r),
      timeoutMs: 60_000,
    });
    if (res.code !== 0) o.out(`agentmux: could not reply in ${o.prUrl}: ${(res.stderr || res.stdout).trim().split("\n")[0]}`);
  };
  if (!o.github.push) {
    o.out("agentmux: github.push is false: a CI fix round could not reach the pull request, so its CI is not followed");
    return 0;
  }
  const start = await startRefOf(o.projectDir);
  try {
    for (let round = 0; ; round++) {
      o.out(`agentmux: following the CI of ${o.prUrl}${round ? ` after fix round ${round}` : ""}`);
      const w = await watchCi({
        read: () => prChecks(o.prUrl, o.projectDir, gh),
        timeoutMs: o.github.ci_timeout_s * 1000,
        pollMs: o.github.ci_poll_s * 1000,
        ...(o.sleep ? { sleep: o.sleep } : {}),
        ...(o.now ? { now: o.now } : {}),
      });
      if (w.state === "no_checks") {
        o.out("agentmux: the pull request reports no CI checks: nothing to follow");
        return 0;
      }
      if (w.state === "green") {
        o.out(`agentmux: CI is green${round ? ` after ${round} fix round(s)` : ""}`);
        if (round > 0) await reply({ kind: "green", rounds: round });
        return 0;
      }
      if (w.state === "timed_out") {
        o.out(`agentmux: CI did not finish within ${o.github.ci_timeout_s} s; stopped following it`);
        await reply({ kind: "timed_out", minutes: Math.round(o.github.ci_timeout_s / 60), checks: w.checks });
        return 1;
      }
      if (round >= o.github.ci_fix_rounds) {
        o.out(`agentmux: CI still failing after ${round} fix round(s): ${w.failing.map((c) => `${c.name} ${c.link}`).join(", ")}`);
        await reply({ kind: "still_failing", rounds: round, checks: w.checks });
        return 1;
      }
      const failing = await failingResults(o, w.failing, round + 1);
      for (const r of failing) o.out(`agentmux: CI job ${r.name.replace(/^ci\//, "")} failed (${r.findings.length} finding(s))`);
      await reply({ kind: "fixing", round: round + 1, maxRounds: o.github.ci_fix_rounds, failing, checks: w.checks });
      await checkoutRemoteBranch(o.projectDir, o.branch, { run: gh });
      const code = await o.startRound(
        { branch: o.branch, pullRequestUrl: o.prUrl, findings: ciFixRequest(o.prUrl, failing) },
        `Make the CI of pull request ${o.prUrl} pass.`,
        round + 1,
      );
      if (code !== 0) {
        o.out(`agentmux: CI fix round ${round + 1} did not finish (exit ${code})`);
        return code;
      }
      await reply({ kind: "pushed", round: round + 1, commit: (await headCommit(o.projectDir)) ?? "" });
    }
  } finally {
    if (start.branch !== o.branch) await returnToStart(o.projectDir, start);
  }
}

async function failingResults(o: CiRoundsInput, checks: Parameters<typeof ciCheckResult>[0][], round: number): Promise<CheckResult[]> {
  const dir = join(o.projectDir, SESSIONS_DIR, ".ci", `round-${round}`);
  mkdirSync(dir, { recursive: true });
  const out: CheckResult[] = [];
  for (const [i, check] of checks.entries()) {
    const logPath = join(dir, `${i + 1}.log`);
    const log = await failedJobLog(check, { cwd: o.projectDir, logPath, ...(o.logs ? { run: o.logs } : {}), ...(o.ghEnv ? { env: o.ghEnv } : {}) });
    out.push(
      ciCheckResult(check, log, log ? logPath : null, {
        root: o.projectDir,
        round,
        logName: `${SESSIONS_DIR}/.ci/round-${round}/${i + 1}.log`,
        at: new Date().toISOString(),
      }),
    );
  }
  return out;
}

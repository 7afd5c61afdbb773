import { z } from "zod";
import { CI_CHECK_FIELDS, GhPrCheck } from "../schema/ci.ts";
import { firstError } from "./git/proc.ts";
import { runBounded, type BoundedResult, type BoundedRunner } from "./process/bounded.ts";
import { runProcess, type Runner } from "./process/run.ts";
import { defineError } from "../errors.ts";

const GH_ENV = { GH_PROMPT_DISABLED: "1", NO_COLOR: "1" };

export const CiChecksUnreadable = defineError("CiChecksUnreadable", "gh", (d: { pr: string; detail: string }) => ({
  message: `could not read the CI checks of ${d.pr}: ${d.detail}`,
  where: "gh pr checks",
  hint: "check `gh auth status` and that the pull request exists",
}));

/**
 * The CI checks of a pull request (`gh pr checks <pr> --json …`). gh exits 8 while checks are
 * pending and 1 when one failed, with the JSON on stdout all the same; "no checks reported" is
 * an empty list.
 */
export async function prChecks(pr: string, cwd: string, run: Runner = runProcess): Promise<GhPrCheck[]> {
  const r = await run(["gh", "pr", "checks", pr, "--json", CI_CHECK_FIELDS], { cwd, env: GH_ENV, timeoutMs: 60_000 });
  const out = r.stdout.trim();
  if (!out) {
    if (/no checks reported/i.test(r.stderr)) return [];
    throw new CiChecksUnreadable({ pr, detail: firstError(r) });
  }
  let data: unknown;
  try {
    data = JSON.parse(out);
  } catch {
    throw new CiChecksUnreadable({ pr, detail: `the answer is not JSON: ${out.slice(0, 120)}` });
  }
  const parsed = z.array(GhPrCheck).safeParse(data);
  if (!parsed.success) throw new CiChecksUnreadable({ pr, detail: `unexpected answer: ${parsed.error.issues[0]?.message}` });
  return parsed.data;
}

/** The Actions run and job a check's link points at (`…/actions/runs/<run>/job/<job>`), or null for another CI. */
export function actionsJob(link: string): { run: string; job: string | null } | null {
  const m = /\/actions\/runs\/(\d+)(?:\/job\/(\d+))?/.exec(link);
  return m ? { run: m[1]!, job: m[2] ?? null } : null;
}

/**
 * The log of a failed GitHub Actions job (`gh run view --job <id> --log-failed`) into `logPath`,
 * through the bounded runner: a job log of any size costs a capped file, never memory. Null when
 * the check is not an Actions job (its link says where to look).
 */
export async function failedJobLog(
  check: GhPrCheck,
  o: { cwd: string; logPath: string; run?: BoundedRunner; timeoutMs?: number; env?: Record<string, string> },
): Promise<BoundedResult | null> {
  const job = actionsJob(check.link);
  if (!job) return null;
  const argv = job.job ? ["gh", "run", "view", "--job", job.job, "--log-failed"] : ["gh", "run", "view", job.run, "--log-failed"];
  return (o.run ?? runBounded)({ argv, cwd: o.cwd, env: { ...o.env, ...GH_ENV }, timeoutMs: o.timeoutMs ?? 120_000, logPath: o.logPath, leftovers: "kill" });
}

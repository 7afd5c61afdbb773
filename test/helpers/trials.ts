/**
 * How many trials a concurrency test runs (two runs, two resumes, two setups started together):
 * `AGENTMUX_TEST_TRIALS=20` runs more by hand to look for a rare loss; by default `fallback`, what
 * the suite can afford on a loaded machine. A test's timeout grows with it (`timeoutFor`).
 */
export function trialCount(fallback: number, env: Record<string, string | undefined> = process.env): number {
  const raw = env.AGENTMUX_TEST_TRIALS?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`AGENTMUX_TEST_TRIALS=${JSON.stringify(raw)}: not a whole number of trials (1 or more)`);
  return n;
}

/** A timeout of `perTrialMs` for each of `trials`, never below `atLeastMs` (what the test had at its default). */
export const timeoutFor = (trials: number, perTrialMs: number, atLeastMs: number) => Math.max(atLeastMs, trials * perTrialMs);

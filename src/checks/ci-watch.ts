import type { CiState, CiWatchOutcome, GhPrCheck } from "../schema/ci.ts";

/** Where checks stand: any failing (fail, cancel) → failing; else any pending → pending; none → no_checks; else green (pass, skipping). */
export function ciState(checks: readonly GhPrCheck[]): CiState {
  if (checks.length === 0) return "no_checks";
  if (checks.some((c) => c.bucket === "fail" || c.bucket === "cancel")) return "failing";
  if (checks.some((c) => c.bucket === "pending" || c.bucket === "")) return "pending";
  return "green";
}

export type WatchCiInput = {
  /** reads the pull request's checks (prChecks bound to its PR and folder) */
  read: () => Promise<GhPrCheck[]>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** between polls (default 30 s) */
  pollMs?: number;
  /** give up after this long (the outcome is timed_out) */
  timeoutMs: number;
  /** a new push's workflows take a while to show: "no checks" counts as pending this long (default 2 min) */
  graceMs?: number;
};

/**
 * Follow a pull request's CI until it settles: every check finished (green or failing), no checks
 * at all after the grace period, or the timeout. A failure ends the watch at once, without waiting
 * for the other checks: their fix round can start.
 */
export async function watchCi(o: WatchCiInput): Promise<CiWatchOutcome> {
  const sleep = o.sleep ?? ((ms: number) => Bun.sleep(ms));
  const now = o.now ?? Date.now;
  const start = now();
  const pollMs = o.pollMs ?? 30_000;
  const graceMs = o.graceMs ?? 120_000;
  for (let polls = 1; ; polls++) {
    const checks = await o.read();
    const state = ciState(checks);
    const failing = checks.filter((c) => c.bucket === "fail" || c.bucket === "cancel");
    if (state === "green" || state === "failing") return { state, checks, failing, polls };
    if (state === "no_checks" && now() - start >= graceMs) return { state, checks, failing, polls };
    if (now() - start + pollMs > o.timeoutMs) return { state: "timed_out", checks, failing, polls };
    await sleep(pollMs);
  }
}

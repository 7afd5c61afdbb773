import type { Config } from "../schema/config.ts";
import type { State } from "../schema/state.ts";
import type { Logger } from "../effects/log.ts";
import type { OrchestratorLoop } from "./loop.ts";
import { activeMs } from "../schema/active-time.ts";
import { isoAt, systemClock, type Clock } from "../effects/clock.ts";

type WatchdogOptions = {
  config: Config;
  headless: boolean;
  loop: Pick<OrchestratorLoop, "state" | "push" | "finished">;
  log: Logger;
  /** true when the run's tmux session is gone (TmuxLoss reports it, once) */
  tmuxGone: () => Promise<boolean>;
  /** marks the orchestrator alive (each tick), so a SIGKILL loses at most one tick of run time */
  beat: () => void;
  clock?: Clock;
};

/** The limits in force: watchdog.* when set, else the finite headless defaults for a headless run. */
export function effectiveLimits(config: Config, headless: boolean): { phaseS: number; runS: number } {
  const w = config.watchdog;
  return {
    phaseS: w.phase_timeout_s || (headless ? config.headless.phase_timeout_s : 0),
    runS: w.run_timeout_s || (headless ? config.headless.run_timeout_s : 0),
  };
}

/** ms the run has been active: earlier orchestrator lifetimes (state.active_ms) plus this one. */
export function runActiveMs(state: State, nowMs: number, startedMs: number): number {
  return activeMs(state, nowMs, startedMs);
}

/**
 * Time limits, checked twice a second (so a limit fires within a second of its deadline): the
 * run limit counted across resumes, the phase limit, rate-limited agents whose reset time
 * passed; and the tmux session disappearing under the run. Screens are the TurnWatcher's.
 */
export function startWatchdog(o: WatchdogOptions): { stop(): void } {
  const clock = o.clock ?? systemClock;
  const now = () => isoAt(clock);
  const { phaseS, runS } = effectiveLimits(o.config, o.headless);
  const retryMs = o.config.watchdog.limit_retry_s * 1000;
  const started = clock.now();
  let phaseTimedOut = "";
  let runTimedOut = false;
  let lastTmuxCheck = 0;
  const resetSent = new Map<string, string>();

  const tick = async () => {
    if (o.loop.finished) return;
    o.beat();
    const s = o.loop.state;
    const t = clock.now();
    if (runS > 0 && !runTimedOut && runActiveMs(s, t, started) > runS * 1000) {
      runTimedOut = true;
      const which = o.config.watchdog.run_timeout_s ? "watchdog.run_timeout_s" : "headless.run_timeout_s";
      o.loop.push({ type: "timeout", at: now(), reason: `the run exceeded its time limit (${which} = ${runS}, counted across resumes)` });
    }
    const last = s.history?.at(-1);
    if (phaseS > 0 && last && phaseTimedOut !== last.at && t - Date.parse(last.at) > phaseS * 1000) {
      phaseTimedOut = last.at;
      const which = o.config.watchdog.phase_timeout_s ? "watchdog.phase_timeout_s" : "headless.phase_timeout_s";
      o.loop.push({ type: "timeout", at: now(), reason: `phase ${s.phase} exceeded its time limit (${which} = ${phaseS})` });
    }
    for (const [agent, a] of Object.entries(s.agents ?? {})) {
      if (a.status !== "rate_limited" || !a.limit) continue;
      const due = Date.parse(a.limit.reset_at ?? "") || Date.parse(a.limit.at) + retryMs;
      if (t >= due && resetSent.get(agent) !== a.limit.at) {
        resetSent.set(agent, a.limit.at);
        o.loop.push({ type: "limit_reset", at: now(), agent });
      }
    }
    if (t - lastTmuxCheck < 2000) return;
    lastTmuxCheck = t;
    await o.tmuxGone();
  };
  return clock.every(500, () => void tick().catch((e) => o.log(`watchdog: ${(e as Error).message}`, { level: "warn", event: "watchdog" })));
}

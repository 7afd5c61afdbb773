import type { Config } from "../schema/config.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import { capturePane } from "../effects/tmux/ops.ts";
import type { AgentRuntime } from "./agents.ts";
import type { Logger } from "../effects/log.ts";
import type { OrchestratorLoop } from "./loop.ts";

type WatchdogOptions = {
  config: Config; tmux: Tmux; sessionName: string; agents: AgentRuntime; loop: OrchestratorLoop; log: Logger;
  /** true when the run's tmux session is gone (TmuxLoss reports it, once) */
  tmuxGone: () => Promise<boolean>;
};

const now = () => new Date().toISOString();

/**
 * Time limits and liveness: the run and phase limits from config, agents whose screen has not
 * changed for `watchdog.stuck_after_s` (reported stuck, and active again once it moves), and
 * the tmux session disappearing under the run.
 */
export function startWatchdog(o: WatchdogOptions): { stop(): void } {
  const w = o.config.watchdog;
  const timers: ReturnType<typeof setInterval>[] = [];
  const started = Date.now();
  const screens = new Map<string, { hash: number; since: number; stuck: boolean }>();
  let phaseTimedOut = "";

  const tick = async () => {
    if (o.loop.finished) return;
    if (w.run_timeout_s > 0 && Date.now() - started > w.run_timeout_s * 1000) {
      o.loop.push({ type: "timeout", at: now(), reason: `the run exceeded its time limit (watchdog.run_timeout_s = ${w.run_timeout_s})` });
    }
    const last = o.loop.state.history?.at(-1);
    if (w.phase_timeout_s > 0 && last && phaseTimedOut !== last.at && Date.now() - Date.parse(last.at) > w.phase_timeout_s * 1000) {
      phaseTimedOut = last.at;
      o.loop.push({ type: "timeout", at: now(), reason: `phase ${o.loop.state.phase} exceeded its time limit (watchdog.phase_timeout_s = ${w.phase_timeout_s})` });
    }
    if (await o.tmuxGone()) return;
    if (w.stuck_after_s <= 0) return;
    for (const [agent, pane] of o.agents.livePanes()) {
      const screen = await capturePane(o.tmux, pane).catch(() => null);
      if (screen === null) continue;
      const hash = Bun.hash(screen) as unknown as number;
      const prev = screens.get(agent);
      if (!prev || prev.hash !== hash) {
        if (prev?.stuck) o.loop.push({ type: "agent_active", at: now(), agent });
        screens.set(agent, { hash, since: Date.now(), stuck: false });
      } else if (!prev.stuck && Date.now() - prev.since > w.stuck_after_s * 1000) {
        prev.stuck = true;
        o.log(`watchdog: ${agent} shows no output for ${w.stuck_after_s} s`);
        o.loop.push({ type: "agent_stuck", at: now(), agent, reason: `no output and no tool call for ${w.stuck_after_s} s` });
      }
    }
  };
  const every = Math.max(1000, Math.min(10000, (w.stuck_after_s || 10) * 250));
  timers.push(setInterval(() => void tick().catch((e) => o.log(`watchdog: ${(e as Error).message}`)), every));
  return { stop: () => timers.forEach(clearInterval) };
}

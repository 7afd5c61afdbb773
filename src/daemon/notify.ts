import { join } from "node:path";
import { systemClock, type Clock } from "../effects/clock.ts";
import { runBounded, type BoundedRunner } from "../effects/process/bounded.ts";
import type { Logger } from "../effects/log.ts";
import { events } from "../report/events.ts";
import type { RunEvent } from "../schema/run-api/event.ts";
import { snapshot } from "../report/snapshot.ts";
import type { RunSnapshot } from "../schema/run-api/snapshot.ts";
import type { Config } from "../schema/config.ts";
import { inertLine } from "../schema/inert-text.ts";
import type { State } from "../schema/state.ts";
import { F, sessionId } from "../protocol/paths.ts";
import { runPageUrl } from "../session/serve-record.ts";

export type NotifyEvent = "needs_you" | "done" | "failed";

/** What `notify.command` reads on its stdin: one JSON object. */
export type Notification = {
  event: NotifyEvent;
  /** one line for a person: what the run needs, or how it ended */
  text: string;
  session: string;
  feature: string;
  phase: string;
  project: string;
  /** the run's page on the `agentmux serve` that runs for this project now (null: none runs) */
  url: string | null;
  commit: string | null;
  pr_url: string | null;
  at: string;
  /** the run API's event that caused it */
  run_event: RunEvent;
};

/** The notification a run API event calls for (null: none). Pure. */
export function notificationOf(e: RunEvent, s: RunSnapshot): { event: NotifyEvent; text: string } | null {
  const label = (key: string) => [...s.agents, ...s.done_agents].find((a) => a.key === key)?.label ?? key;
  switch (e.kind) {
    case "awaiting_decision":
      return { event: "needs_you", text: "the run waits for your approval" };
    case "agent_needs_input":
      return { event: "needs_you", text: `${label(e.agent)} asks: ${e.question?.text ?? "(see its pane)"}` };
    case "agent_stuck":
      return { event: "needs_you", text: `${label(e.agent)} is stuck: ${e.note}` };
    case "budget_reached":
      return e.paused ? { event: "needs_you", text: `budget reached, agents paused: ${e.text}` } : null;
    case "phase":
      return e.phase === "done"
        ? {
            event: "done",
            text: s.commit_hash
              ? `done: committed ${s.commit_hash.slice(0, 10)}${s.branch ? ` on ${s.branch}` : ""}${s.pr_url ? ` · ${s.pr_url}` : ""}`
              : "done",
          }
        : null;
    case "interrupted":
      return e.category === "failed" ? { event: "failed", text: `failed: ${e.cause ?? "see agentmux status"}` } : null;
    default:
      return null;
  }
}

/**
 * `notify.command`: told when the run needs its user, is done or failed, with a link to its page
 * (docs/web.md). The run API's events between successive states say when; each command runs
 * bounded (its process group killed at `timeout_s`, output in .runtime/notify.log), one at a
 * time, never holding the loop; the orchestrator waits for the last ones (`drain`) before it exits.
 */
export class Notifier {
  private prev: RunSnapshot | null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    /** `clock`: wall time, the snapshot's now (systemClock unless given) */
    private readonly o: { config: Config["notify"]; sessionDir: string; projectDir: string; log: Logger; run?: BoundedRunner; clock?: Clock },
    first: State,
  ) {
    this.prev = this.enabled ? this.snapshotOf(first) : null;
  }

  private get enabled(): boolean {
    return this.o.config.command.trim() !== "";
  }

  private snapshotOf(state: State): RunSnapshot {
    return snapshot({
      dir: this.o.sessionDir,
      state,
      id: sessionId(this.o.sessionDir),
      live: true,
      toolEvents: state.applied_tool_events ?? 0,
      now: (this.o.clock ?? systemClock).now(),
    });
  }

  /** A state the loop applied: notify what its events call for. */
  observe(state: State): void {
    if (!this.enabled) return;
    const next = this.snapshotOf(state);
    const found = this.prev ? events(this.prev, next) : [];
    this.prev = next;
    for (const e of found) {
      const n = notificationOf(e, next);
      if (n && this.o.config.on.includes(n.event)) this.send({ ...n, text: inertLine(n.text).slice(0, 500), e, s: next });
    }
  }

  private send(n: { event: NotifyEvent; text: string; e: RunEvent; s: RunSnapshot }): void {
    const body: Notification = {
      event: n.event,
      text: n.text,
      session: n.s.id,
      feature: n.s.feature,
      phase: n.s.phase,
      project: this.o.projectDir,
      url: runPageUrl(this.o.projectDir, n.s.id),
      commit: n.s.commit_hash,
      pr_url: n.s.pr_url,
      at: new Date().toISOString(),
      run_event: n.e,
    };
    this.chain = this.chain.then(() => this.runOne(body));
  }

  private async runOne(n: Notification): Promise<void> {
    const r = await (this.o.run ?? runBounded)({
      argv: ["sh", "-c", this.o.config.command],
      cwd: this.o.projectDir,
      timeoutMs: this.o.config.timeout_s * 1000,
      logPath: join(this.o.sessionDir, F.runtimeDir, "notify.log"),
      leftovers: "kill",
      stdin: JSON.stringify(n) + "\n",
      env: { AGENTMUX_NOTIFY_EVENT: n.event },
    });
    const how = r.spawnError
      ? `could not start: ${r.spawnError}`
      : r.timedOut
        ? `killed after ${this.o.config.timeout_s} s`
        : r.exitCode === 0
          ? "sent"
          : `exit ${r.exitCode ?? r.signal}`;
    const ok = how === "sent";
    this.o.log(`notify ${n.event}: ${how} (${r.durationMs} ms)${ok ? "" : `; output in ${F.runtimeDir}/notify.log`}`, {
      level: ok ? "info" : "warn",
      event: "notify",
      data: { notify: n.event, ok },
    });
  }

  /** The notifications under way, done (each is bounded by its timeout). */
  drain(): Promise<void> {
    return this.chain;
  }
}

import { join } from "node:path";
import type { Effect } from "../schema/effects.ts";
import { toolNameForAgent } from "../providers/resolve.ts";
import { nudgeText } from "../prompts/nudge.ts";
import { F } from "../protocol/paths.ts";
import type { AgentRuntime } from "./agents.ts";
import type { AgentRuntimeOptions } from "./agent-types.ts";
import type { Clock } from "../effects/clock.ts";
import type { ResolvedAgent } from "../providers/resolve.ts";
import { callAttention } from "./attention.ts";
import { Later, nothing, toCome, type Outcome } from "./outcome.ts";

type Nudge = Extract<Effect, { type: "nudge_agent" }>;

/** What a reminder needs of the agent runtime (AgentRuntime is one). */
export type NudgeTarget = {
  /** the clock of the reminder's delay and of the TurnWatcher's turn-end times */
  clock: Clock;
  o: Pick<AgentRuntimeOptions, "sessionDir" | "state" | "isIdle" | "turnEnd" | "log">;
  resolvedOf(agent: string): ResolvedAgent | undefined;
  deliver(agent: string, text: string, onDone?: (ok: boolean) => void): Outcome;
};

/**
 * Deliver a reminder to an agent whose turn ended without its submit, after the effect's
 * delay, unless the agent acted meanwhile (it is busy again, or the orchestrator no longer
 * sees it waiting). Logs how long after its screen settled the reminder was accepted. Its
 * outcome: the delivery's, once it is due.
 */
export function deliverNudge(rt: NudgeTarget, e: Nudge): Outcome {
  const fire = (): Outcome => {
    const resolved = rt.resolvedOf(e.agent);
    if (!resolved) return nothing();
    const status = rt.o.state?.().agents?.[e.agent]?.status;
    if (status !== undefined && status !== "idle_without_submit") {
      rt.o.log(`reminder ${e.attempt} to ${e.agent} dropped: it is ${status} now`, {
        event: "watchdog",
        agent: e.agent,
        data: { reminder: e.attempt, dropped: status },
      });
      return nothing();
    }
    if (rt.o.isIdle && !rt.o.isIdle(e.agent)) {
      rt.o.log(`reminder ${e.attempt} to ${e.agent} dropped: it is working again`, {
        event: "watchdog",
        agent: e.agent,
        data: { reminder: e.attempt, dropped: "working" },
      });
      return nothing();
    }
    const text = nudgeText({
      tool: e.tool ? toolNameForAgent(resolved, e.tool) : null,
      file: join(rt.o.sessionDir, e.file ?? F.assumptions),
      assumptions: join(rt.o.sessionDir, F.assumptions),
      attempt: e.attempt,
      limit: e.limit,
      ...(e.refusal ? { refusal: e.refusal } : {}),
      decide: e.decide,
    });
    const end = rt.o.turnEnd?.(e.agent) ?? null;
    return rt.deliver(e.agent, text, (ok) => {
      if (!ok || !end) return;
      const t = rt.clock.now();
      const settled = Math.round(t - end.settledAt);
      rt.o.log(
        `reminder ${e.attempt}/${e.limit} accepted by ${e.agent} ${settled} ms after its screen settled (${Math.round(t - end.endedAt)} ms after the turn end was seen)`,
        {
          event: "delivered",
          agent: e.agent,
          data: { reminder: e.attempt, of: e.limit, after_settled_ms: settled },
        },
      );
    });
  };
  if (e.delay_ms <= 0) return fire();
  const later = new Later();
  rt.clock.after(e.delay_ms, () => later.follow(fire()));
  return toCome(later);
}

/** A call for a person's attention, with the command that shows the agent's pane. */
export async function attention(rt: AgentRuntime, text: string, agent?: string): Promise<void> {
  const pane = agent ? rt.paneOf(agent) : undefined;
  const attach = rt.o.tmux.attachCommand(rt.o.sessionName, pane ? { pane } : {});
  const told = await callAttention(rt.o.tmux, rt.o.sessionName, text);
  rt.o.log(`attention: ${text} (attach: ${attach}; ${told} client${told === 1 ? "" : "s"} told)`, {
    level: "warn",
    event: "watchdog",
    agent,
    pane,
    data: { attention: true, clients: told },
  });
}

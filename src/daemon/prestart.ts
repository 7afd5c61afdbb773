import type { Config } from "../schema/config.ts";
import { agentLive, type State } from "../schema/state.ts";
import { upcomingAgents, type UpcomingAgent } from "../orchestrator/upcoming.ts";
import { resolveRole } from "../providers/resolve.ts";
import type { Logger } from "../effects/log.ts";

/** What the pre-starter needs of the agent runtime (AgentRuntime). */
export type PrestartRuntime = {
  prestart(agent: string, role: UpcomingAgent["role"]): void;
  prestarted(): string[];
  dropPrestart(agent: string, why: string): Promise<void>;
};

/** The upcoming agents worth pre-starting: their provider allows it, at most `prestart.max_panes`. */
export function prestartPlan(state: State, config: Config): UpcomingAgent[] {
  if (config.prestart.max_panes === 0) return [];
  return upcomingAgents(state)
    .filter((u) => {
      try {
        const r = resolveRole(config, u.role);
        return r.provider.prestart;
      } catch {
        return false;
      }
    })
    .slice(0, config.prestart.max_panes);
}

/**
 * Pre-started handoffs (#15.3): after every state change, the agents the next phase will
 * launch are started in the hidden window (their CLI up and their MCP client connected when
 * the handoff comes, which then costs only the prompt delivery), and pre-starts the run no
 * longer needs are closed. An agent the state already has starting is kept: its launch takes it.
 */
export class Prestarter {
  constructor(private readonly o: { runtime: PrestartRuntime; config: Config; log: Logger }) {}

  update(state: State): void {
    const ended = state.phase === "done" || state.phase === "failed";
    const wanted = ended ? [] : prestartPlan(state, this.o.config);
    const held = this.o.runtime.prestarted();
    for (const agent of held) {
      const launching = agentLive(state.agents?.[agent]);
      if (!launching && !wanted.some((w) => w.agent === agent)) void this.o.runtime.dropPrestart(agent, ended ? "the run ended" : `the run no longer needs it (phase ${state.phase})`);
    }
    let room = this.o.config.prestart.max_panes - this.o.runtime.prestarted().length;
    for (const w of wanted) {
      if (room <= 0) break;
      if (held.includes(w.agent)) continue;
      this.o.runtime.prestart(w.agent, w.role);
      room--;
    }
  }
}

import type { Config } from "../schema/config.ts";
import { phaseEnded, type Role } from "../schema/catalog.ts";
import { agentLive, type State } from "../schema/state.ts";
import { startingAgents, upcomingAgents, type UpcomingAgent } from "../orchestrator/upcoming.ts";
import type { Settings } from "../orchestrator/types.ts";
import { resolveRole } from "../providers/resolve.ts";
import type { Logger } from "../effects/log.ts";

/** A pane started ahead: `id` names it until a launch takes it over; `agent` null when it was started by role. */
export type HeldPrestart = { id: string; agent: string | null; role: Role };

/** What the pre-starter needs of the agent runtime (AgentRuntime). */
export type PrestartRuntime = {
  prestart(want: { agent: string | null; role: Role }): void;
  prestarted(): HeldPrestart[];
  dropPrestart(id: string, why: string): Promise<void>;
};

/**
 * The upcoming agents worth pre-starting, nearest first: their provider allows it, the fixer
 * only with `prestart.fixer`; none with `prestart.max_panes: 0`. The daemon starts them from the
 * front as far as `prestart.max_panes` leaves room.
 */
export function prestartPlan(state: State, config: Config, settings: Pick<Settings, "max_review_iterations" | "single_coder">): UpcomingAgent[] {
  return allowed(upcomingAgents(state, settings), config);
}

function allowed(agents: UpcomingAgent[], config: Config): UpcomingAgent[] {
  if (config.prestart.max_panes === 0) return [];
  return agents.filter((u) => {
    if (u.beforeVerdict && !config.prestart.fixer) return false;
    try {
      return resolveRole(config, u.role).provider.prestart;
    } catch {
      return false;
    }
  });
}

/**
 * Which held pre-starts the wanted agents use: one started for the agent's key, else one started
 * by the agent's role (the launch takes it over by role). The held ones left over are not wanted.
 */
export function matchPrestarts(wanted: UpcomingAgent[], held: HeldPrestart[]): { unmet: UpcomingAgent[]; unused: HeldPrestart[] } {
  const used = new Set<string>();
  const unmet: UpcomingAgent[] = [];
  const free = (h: HeldPrestart) => !used.has(h.id);
  for (const w of wanted) {
    const h =
      (w.agent !== null ? held.find((x) => free(x) && x.agent === w.agent) : undefined) ?? held.find((x) => free(x) && x.agent === null && x.role === w.role);
    if (h) used.add(h.id);
    else unmet.push(w);
  }
  return { unmet, unused: held.filter(free) };
}

/**
 * Pre-started handoffs (#15.3, #27.7): after every state change, the agents the coming phases
 * will launch are started in the hidden window, nearest first, as many as `prestart.max_panes`
 * leaves room for (their CLI up and their MCP client connected when the handoff comes, which
 * then costs only the prompt delivery), and pre-starts the run no longer needs are closed. A
 * pre-start the run still needs is kept, also when a nearer agent became known since (a plan
 * naming a second coder): closing it would waste its start. An agent the state already has
 * starting is kept: its launch takes it.
 */
export class Prestarter {
  constructor(
    private readonly o: { runtime: PrestartRuntime; config: Config; settings: Pick<Settings, "max_review_iterations" | "single_coder">; log: Logger },
  ) {}

  /**
   * At the orchestrator's start, before the rest of its start-up (watchers, hooks, the outbox):
   * the agent a fresh run's first step launches, which then takes it over.
   */
  startFirst(state: State): void {
    for (const w of allowed(startingAgents(state), this.o.config).slice(0, this.o.config.prestart.max_panes)) this.o.runtime.prestart(w);
  }

  update(state: State): void {
    const ended = phaseEnded(state.phase);
    const wanted = ended ? [] : prestartPlan(state, this.o.config, this.o.settings);
    const { unmet, unused } = matchPrestarts(wanted, this.o.runtime.prestarted());
    for (const h of unused) {
      const launching = h.agent !== null && agentLive(state.agents?.[h.agent]);
      if (!launching) void this.o.runtime.dropPrestart(h.id, ended ? "the run ended" : `the run no longer needs it (phase ${state.phase})`);
    }
    let room = this.o.config.prestart.max_panes - this.o.runtime.prestarted().length;
    for (const w of unmet) {
      if (room <= 0) break;
      this.o.runtime.prestart(w);
      room--;
    }
  }
}

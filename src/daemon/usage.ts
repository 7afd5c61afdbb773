import type { Config } from "../schema/config.ts";
import type { Event } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import type { UsageRecord } from "../schema/usage.ts";
import type { Logger } from "../effects/log.ts";
import { UsageReader } from "../providers/usage/read.ts";
import { costOf, priceFor } from "../providers/usage/price.ts";
import { monotonicClock, type Clock } from "../effects/clock.ts";

type Options = { sessionDir: string; config: Config; state: () => State; push: (e: Event) => void; log: Logger; clock?: Clock };

const same = (a: UsageRecord | undefined, b: UsageRecord) =>
  !!a &&
  a.input === b.input &&
  a.cached === b.cached &&
  a.cache_write === b.cache_write &&
  a.output === b.output &&
  a.model === b.model &&
  a.cost_usd === b.cost_usd &&
  a.agent === b.agent;

/**
 * Reads each agent's token usage from its CLI's own records (by the conversation id state
 * holds for it) and reports what changed as `usage_read` events.
 */
export class UsageWatcher {
  private readonly reader = new UsageReader();
  private timer: { stop(): void } | null = null;
  private failed = new Set<string>();
  /** every conversation seen, with its agent and provider: an agent's earlier conversations keep counting */
  private readonly known = new Map<string, { agent: string; provider: string | undefined }>();
  constructor(private readonly o: Options) {}

  /** A conversation an agent was launched with (before state may show it: a short turn still counts). */
  remember(agent: string, id: string, provider?: string): void {
    if (!this.known.has(id)) this.known.set(id, { agent, provider: provider ?? this.o.state().agents?.[agent]?.provider });
  }

  /** Events for the conversations whose figures changed since state last recorded them. */
  poll(): Event[] {
    const state = this.o.state();
    for (const [agent, info] of Object.entries(state.agents ?? {})) if (info.conversation_id) this.remember(agent, info.conversation_id, info.provider);
    const out: Event[] = [];
    for (const [id, { agent, provider: providerName }] of this.known) {
      const provider = providerName ? this.o.config.providers[providerName] : undefined;
      if (!provider?.usage.length) continue;
      try {
        const u = this.reader.read(id, provider.usage, { sessionDir: this.o.sessionDir, env: provider.env });
        if (!u) continue;
        const figures = { input: u.input, cached: u.cached, cache_write: u.cache_write, output: u.output };
        const record: UsageRecord = {
          agent,
          provider: providerName!,
          model: u.model,
          source: u.source,
          ...figures,
          cost_usd: costOf(figures, priceFor(u.model, this.o.config.pricing)),
        };
        if (!same(state.usage?.[id], record)) out.push({ type: "usage_read", at: new Date().toISOString(), conversation: id, record });
      } catch (e) {
        if (!this.failed.has(id))
          this.o.log(`could not read ${agent}'s usage (conversation ${id}): ${(e as Error).message}`, {
            level: "warn",
            event: "usage_unreadable",
            agent,
            error: (e as Error).message,
            data: { conversation: id },
          });
        this.failed.add(id);
      }
    }
    return out;
  }

  start(everyMs = 2000): void {
    this.timer = (this.o.clock ?? monotonicClock).every(everyMs, () => this.poll().forEach((e) => this.o.push(e)));
  }

  stop(): void {
    this.timer?.stop();
    this.timer = null;
  }
}

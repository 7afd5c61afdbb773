import type { Role } from "../schema/catalog.ts";
import type { AgentTokens } from "../mcp/identity.ts";
import type { Logger } from "../effects/log.ts";
import type { Clock } from "../effects/clock.ts";
import type { HeldPrestart } from "./prestart.ts";
import type { LaunchOptions, Started } from "./agents.ts";

type Size = { width: number; height: number };

/** What the pool needs of the agent runtime and its layout. */
export type PoolDeps = {
  /** start a CLI in a parked pane under `key` (its token issued to that key) */
  spawn(key: string, role: Role, label: string, size?: Size): Promise<Started>;
  /** get the pane ready for its first prompt (PaneWriter.prepare with the key's MCP gate) */
  prepare(key: string, s: Started): Promise<boolean>;
  soloSize(): Promise<Size>;
  /** label a pane being taken over as its agent; false when its CLI exited or the pane is gone */
  claim(pane: string, label: string): Promise<boolean>;
  /** close a pane nobody will prompt */
  close(pane: string): Promise<void>;
  tokens: AgentTokens;
  log: Logger;
  /** how long a pane took to get ready (the daemon's monotonic clock) */
  clock: Clock;
};

/** `readyAt`: when its preparation found it ready for its first prompt (on the clock); unset until then. */
type Entry = HeldPrestart & { pending: Promise<Started | null>; readyAt?: number };

/**
 * A pre-start taken over by a launch: the pane, the id it was held under when started by role,
 * and how long it had been ready for its prompt (null: not ready yet, its prompt waits for it).
 */
export type Taken = { started: Started; byRole: string | null; readyMs: number | null };

/**
 * Panes started ahead for the next phase (#15.3), parked in the hidden window until a launch
 * takes them over. One started for a known agent key is held under that key; one started by
 * role (the coders before the plan names them) under an id of its own, `<role>~p<n>` (its files,
 * named after it, never collide with an agent key's: `coder~p1` is `coder_p1`, `coder:1` is `coder_1`), whose token
 * is re-bound to the launching agent's key at the take-over (AgentTokens.rekey).
 */
export class PrestartPool {
  private readonly held = new Map<string, Entry>();
  private seq = 0;

  constructor(private readonly d: PoolDeps) {}

  /** Start one; its CLI starts and its MCP client connects while the current phase works. */
  start(want: { agent: string | null; role: Role }): void {
    const id = want.agent ?? `${want.role}~p${++this.seq}`;
    if (this.held.has(id)) return;
    const entry: Entry = { id, agent: want.agent, role: want.role, pending: Promise.resolve(null) };
    const who = want.agent ?? `a ${want.role} (by role, as ${id})`;
    // parked at the size it will have when shown alone: showing it then does not redraw its screen
    const size = this.d.soloSize().catch(() => undefined);
    entry.pending = size
      .then((sz) => this.d.spawn(id, want.role, `[pre-started] ${want.agent ?? want.role}`, sz))
      .then(
        (s) => {
          this.d.log(`pre-started ${who} (${s.pane.resolved.providerName}) in ${s.pane.pane} for the next phase`, {
            event: "agent_prestarted",
            agent: id,
            pane: s.pane.pane,
            data: { provider: s.pane.resolved.providerName, role: want.role, by_role: want.agent === null, argv: s.argv },
          });
          // its trust dialog, ready prompt, MCP connection and settle time are waited for now, not at the handoff
          const t0 = this.d.clock.now();
          void this.d.prepare(id, s).then(
            (ready) => {
              if (ready) entry.readyAt = this.d.clock.now();
              this.d.log(
                `pre-started ${id} ${ready ? "ready for its prompt" : "not ready yet (its prompt waits as usual)"} after ${Math.round(this.d.clock.now() - t0)} ms`,
              );
            },
            (e) => this.d.log(`preparing the pre-started ${id} failed (its prompt waits as usual): ${(e as Error).message}`, { level: "warn" }),
          );
          return s;
        },
        (e) => {
          this.d.log(`pre-starting ${who} failed (it starts when its phase does): ${(e as Error).message}`, {
            level: "warn",
            event: "agent_prestarted",
            agent: id,
            error: (e as Error).message,
          });
          if (this.held.get(id) === entry) this.held.delete(id);
          return null;
        },
      );
    this.held.set(id, entry);
  }

  list(): HeldPrestart[] {
    return [...this.held.values()].map(({ id, agent, role }) => ({ id, agent, role }));
  }

  /** Whether a pre-start is held under this key (it owns the key's current token). */
  holds(key: string): boolean {
    return this.held.has(key);
  }

  /** A pre-start no longer needed: its pane is closed, its token revoked. */
  async drop(id: string, why: string, keepToken = false): Promise<void> {
    const p = this.held.get(id);
    if (!p) return;
    this.held.delete(id);
    const s = await p.pending;
    if (!s) return;
    if (!keepToken) this.d.tokens.revoke(id);
    this.d.log(`closed the pre-started ${id} (${s.pane.pane}): ${why}`, { event: "prestart_dropped", agent: id, pane: s.pane.pane, data: { why } });
    await this.d.close(s.pane.pane).catch(() => {});
  }

  /**
   * The pre-started pane for this launch: the one held under the agent's key, else one started
   * by the agent's role; used when it is alive and started the same way, its token then bound to
   * `agent` and its pane labelled `label`. Null (and the pane closed) otherwise.
   */
  async take(agent: string, role: Role, lo: LaunchOptions, label: string): Promise<Taken | null> {
    const p = this.held.get(agent) ?? [...this.held.values()].find((x) => x.agent === null && x.role === role);
    if (!p) return null;
    this.held.delete(p.id);
    const s = await p.pending;
    if (!s) return null;
    const same = p.role === role && !lo.batchPrompt && !lo.conversation && (!lo.provider || lo.provider === s.pane.resolved.providerName);
    const alive = same && (await this.d.claim(s.pane.pane, label));
    // by role: the token moves to the agent's key (its earlier pane's token is revoked by that)
    const usable = alive && (p.agent !== null || this.d.tokens.rekey(p.id, agent, role));
    if (usable)
      return { started: s, byRole: p.agent === null ? p.id : null, readyMs: p.readyAt === undefined ? null : Math.round(this.d.clock.now() - p.readyAt) };
    const why = !same ? "this launch differs" : !alive ? "its CLI exited" : "its MCP token is gone";
    this.d.log(`not using the pre-started ${p.id} (${s.pane.pane}) for ${agent}: ${why}`, {
      event: "prestart_dropped",
      agent: p.id,
      pane: s.pane.pane,
      data: { why },
    });
    this.d.tokens.revoke(p.id);
    await this.d.close(s.pane.pane).catch(() => {});
    return null;
  }
}

import { join } from "node:path";
import { proxyIn } from "../effects/proxy.ts";
import { ROLE_TOOLS } from "../schema/catalog.ts";
import { adapterFor } from "../providers/adapters/registry.ts";
import { PROMPT_REFERENCE } from "../prompts/render.ts";
import { countMatches } from "./screen-facts.ts";
import type { DeliverOptions, PaneWriter } from "../effects/tmux/deliver.ts";
import type { AgentTokens } from "../mcp/identity.ts";
import type { AgentPane, AgentRuntimeOptions } from "./agent-types.ts";
import type { Event } from "../schema/events.ts";
import type { Clock } from "../effects/clock.ts";
import { laterFrom, produced, toCome, type Outcome } from "./outcome.ts";

const now = () => new Date().toISOString();
/** the conversation capture's first look after the prompt was accepted, and its later ones */
const CAPTURE_FIRST_MS = 300;
const CAPTURE_EVERY_MS = 500;
const CAPTURE_LOOKS = 40;

/** The last warning or error line a CLI shows on its screen (a box's borders stripped), or null. */
export function cliWarning(screen: string): string | null {
  const lines = screen
    .split("\n")
    .map((l) => l.replace(/^[\s│┃|╭╰]+|[\s│┃|╮╯]+$/g, ""))
    .filter((l) => /(Security Warning|Warning|Error|error):/.test(l));
  return lines.at(-1)?.slice(0, 300) ?? null;
}

/**
 * An MCP connection that never came with an HTTP(S) proxy set: the likely cause, named (a CLI
 * that sends loopback through the proxy never reaches agentmux's endpoint; qwen did).
 */
function proxyHint(reason: string): string {
  const proxy = reason.includes("MCP server never became ready") ? proxyIn(process.env) : null;
  return proxy
    ? `; ${proxy.name}=${proxy.value} is set: a CLI that sends its loopback MCP connection through that proxy never reaches agentmux (set providers.<name>.mcp_transport: stdio, or add 127.0.0.1 to NO_PROXY)`
    : "";
}

/** Whether the agent's role calls agentmux's tools through an MCP client its CLI connects. */
const needsMcp = (a: AgentPane) => ROLE_TOOLS[a.role].length > 0 && a.resolved.provider.mcp !== "none";

/**
 * What a prompt to this pane waits for: the provider's ready gate and trust dialogs, and before
 * its first prompt the MCP-ready gate (the endpoint has seen this agent's initialize and tools/list).
 */
export function promptGates(agent: string, a: AgentPane, tokens: AgentTokens, first: boolean): DeliverOptions {
  const p = a.resolved.provider;
  return { submit: p.submit, ready: p.ready, trust: p.trust, first, ...(first && needsMcp(a) ? { waitFirst: () => tokens.ready(agent) } : {}) };
}

/**
 * Prompts and notes into the agents' panes and what became of each: an accepted prompt starts
 * the agent's turn, a failed one makes it stuck (with the CLI's own words), one cut short by the
 * pane's exit is that exit's business. A CLI that picks its own conversation id has it captured
 * after its first prompt. Each delivery's outcome is its events still to come (agent_active or
 * agent_stuck, then conversation_captured).
 */
export class AgentDeliveries {
  /** when the last delivery to each agent started (wall time) */
  readonly #deliveredAt = new Map<string, number>();

  constructor(
    private readonly o: AgentRuntimeOptions,
    /** the agent's current pane (undefined: it has none now) */
    private readonly current: (agent: string) => AgentPane | undefined,
    /** the clock of the paste (compared with the last tool call) and of the conversation capture's looks */
    private readonly clock: Clock,
    /** wall time: when a delivery started, compared with events' stamps */
    private readonly wall: Clock,
  ) {}

  /** Whether a prompt or note went out to the agent after `at` (ISO): a turn end seen then is the task's before. */
  deliveredSince(agent: string, at: string): boolean {
    const t = Date.parse(at);
    return Number.isFinite(t) && (this.#deliveredAt.get(agent) ?? 0) > t;
  }

  /** A prompt file's one-line reference. */
  promptText(promptPath: string): string {
    return PROMPT_REFERENCE(join(this.o.sessionDir, promptPath));
  }

  /** Deliver `text` to the agent; `onDone` learns whether it was accepted. Never throws: a crash is logged. */
  deliver(agent: string, text: string, onDone?: (ok: boolean) => void): Outcome {
    const a = this.current(agent);
    if (!a) {
      this.o.log(`cannot deliver to ${agent}: it has no pane`);
      onDone?.(false);
      return produced();
    }
    return toCome(
      laterFrom(
        (put) => this.#deliver(agent, a, text, put, onDone),
        (e) =>
          this.o.log(`delivery to ${agent} crashed: ${(e as Error).message}`, { level: "error", event: "delivery_failed", agent, error: (e as Error).stack }),
      ),
    );
  }

  async #deliver(agent: string, a: AgentPane, text: string, put: (e: Event) => void, onDone?: (ok: boolean) => void): Promise<void> {
    const first = !a.prompted;
    a.prompted = true;
    const tokens = this.o.mcp.tokens;
    let pastedAt = 0;
    const limits = a.resolved.provider.limits.map((l) => new RegExp(l, "m"));
    const acted = () => pastedAt > 0 && (this.o.lastToolCall?.(agent) ?? 0) > pastedAt;
    this.#deliveredAt.set(agent, this.wall.now());
    this.o.onDelivering?.(agent, true);
    let r: Awaited<ReturnType<PaneWriter["deliver"]>>;
    try {
      r = await this.o.writer.deliver(a.pane, text, {
        ...promptGates(agent, a, tokens, first),
        // a tool call after the paste means the agent took the prompt (and acted on it)
        onPasted: () => void (pastedAt = this.clock.now()),
        acted,
        // a CLI out of quota answers at once with its limit screen, never busy: that took the prompt
        answered: (pasted, screen) => limits.some((re) => countMatches(re, screen) > countMatches(re, pasted)),
      });
    } finally {
      this.o.onDelivering?.(agent, false);
    }
    // the agent may be gone already because it took the prompt and finished at once (its
    // submit reaches the in-process endpoint within milliseconds): the delivery still happened
    // (its pane closed under the delivery's last look: a tool call after the paste says it took it)
    if (this.current(agent)?.pane !== a.pane) return onDone?.(r.ok || acted());
    if (r.ok && first && needsMcp(a)) {
      const link = tokens.link(agent);
      if (link?.readyAt)
        this.o.log(
          `${agent}: MCP ready ${link.readyAt - link.issuedAt} ms after launch (initialize after ${(link.initializedAt ?? link.readyAt) - link.issuedAt} ms)${link.bridgePid ? ` (stdio bridge pid ${link.bridgePid})` : ""}`,
        );
    }
    if (r.ok) {
      this.o.onTurn?.(agent);
      put({ type: "agent_active", at: now(), agent });
      onDone?.(true);
      if (a.capture) await this.captureConversation(agent, a, text, put);
      return;
    }
    if (r.exited) {
      this.o.log(`delivery to ${agent} stopped: ${r.reason} (its exit is handled as such)`, {
        level: "warn",
        event: "delivery_failed",
        agent,
        pane: a.pane,
        data: { reason: r.reason, exited: true },
      });
    } else {
      const fix = this.o.tmux.attachCommand(this.o.sessionName, { pane: a.pane });
      this.o.log(`delivery to ${agent} failed: ${r.reason}\n${r.screen}`, {
        level: "warn",
        event: "delivery_failed",
        agent,
        pane: a.pane,
        data: { reason: r.reason },
      });
      // the CLI's own words say why (gemini: "Security Warning: Skipping … settings file …")
      const said = cliWarning(r.screen);
      put({
        type: "agent_stuck",
        at: now(),
        agent,
        reason: `${r.reason}${said ? `; the CLI says: ${said}` : ""}${proxyHint(r.reason)}; to fix by hand: ${fix}`,
      });
    }
    onDone?.(false);
  }

  /** A CLI that picks its own conversation id (codex, agy): found by its adapter in the CLI's files, which name our prompt, for about 20 seconds. */
  private async captureConversation(agent: string, a: AgentPane, text: string, put: (e: Event) => void): Promise<void> {
    a.capture = false;
    const kind = a.resolved.provider.conversation?.capture ?? "none";
    const find = adapterFor(kind)?.captureConversation;
    if (!find) return;
    await this.clock.sleep(CAPTURE_FIRST_MS);
    for (let tries = 0; tries < CAPTURE_LOOKS; tries++) {
      if (tries) await this.clock.sleep(CAPTURE_EVERY_MS);
      if (this.current(agent) !== a) return;
      const id = find({ env: a.env, sinceMs: a.launchedAt, promptLine: text });
      if (id) return put({ type: "conversation_captured", at: now(), agent, id });
    }
    this.o.log(`could not find ${agent}'s ${kind} conversation id: a restart will start a fresh conversation`);
  }
}

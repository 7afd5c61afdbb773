import { loadSealKey, type SealKey } from "../bus/tool-seal.ts";
import { McpEndpoint } from "../mcp/endpoint.ts";
import { ToolEventLog } from "../mcp/events.ts";
import { AgentTokens } from "../mcp/identity.ts";
import { processTreeCheck } from "../mcp/peer.ts";
import { tcpPeersResolvable } from "../effects/process/tcp-peer.ts";
import { agentHandlers } from "../mcp/server.ts";
import type { State } from "../schema/state.ts";
import type { Logger } from "../effects/log.ts";
import { sameProcessAlive } from "../effects/process/identity.ts";
import { monotonicClock, type Clock } from "../effects/clock.ts";

export type McpHost = { endpoint: McpEndpoint; tokens: AgentTokens; sealKey: SealKey; events: ToolEventLog; stop(): void };

/**
 * The run's MCP endpoint, hosted in the orchestrator: one HTTP server on 127.0.0.1 for every
 * agent, a token per agent, and the sealed tool-event log it appends to. Paths come from the
 * orchestrator's own start (the session folder it was given), never from state.json; the
 * phase and active subplans from its state in memory.
 */
export function startMcpHost(o: { sessionDir: string; projectDir: string; state: () => State; log: Logger }): McpHost {
  const sealKey = loadSealKey(o.sessionDir);
  const events = new ToolEventLog(o.sessionDir, sealKey, o.state().tool_seq ?? 0);
  const tokens = new AgentTokens();
  const host = { sessionDir: o.sessionDir, projectDir: o.projectDir, state: o.state, events, log: o.log };
  // where the connection's process can be found (Linux), a token is accepted only from its agent's process tree
  const peer = tcpPeersResolvable() ? processTreeCheck() : undefined;
  const endpoint = McpEndpoint.start({ tokens, handlers: (link) => agentHandlers(host, link), log: o.log, ...(peer ? { peer } : {}) });
  o.log(`MCP endpoint listening on ${endpoint.url}${peer ? "" : " (this system has no /proc/net/tcp: a request is an agent's by its token alone)"}`);
  return { endpoint, tokens, sealKey, events, stop: () => endpoint.stop() };
}

/**
 * A dead endpoint or stdio bridge is noticed within seconds, said in the log, and recovered:
 * the endpoint is started again on its port (the agents' configs name it; if the port is gone
 * the run stops with that cause), an agent whose bridge process died is restarted with its
 * last prompt. Without this a lost connection surfaced only as a stuck agent much later.
 */
export function watchMcp(o: {
  endpoint: McpEndpoint;
  bridges: () => { agent: string; pid: number }[];
  restartAgent: (agent: string, why: string) => Promise<void>;
  fail: (error: string) => void;
  log: Logger;
  everyMs?: number;
  clock?: Clock;
}): { stop(): void } {
  let busy = false;
  let stopped = false;
  const restarting = new Set<string>();
  const tick = async () => {
    if (busy || stopped) return;
    busy = true;
    try {
      const healthy = await o.endpoint.healthy();
      // the run ended while the check was in flight: the endpoint was stopped on purpose, and one
      // started again now would keep the finished orchestrator alive
      if (stopped) return;
      if (!healthy) {
        o.log(`MCP endpoint on port ${o.endpoint.port} stopped answering; starting it again`);
        try {
          o.endpoint.restart();
          o.log(`MCP endpoint answering again on ${o.endpoint.url}`);
        } catch (e) {
          o.fail(`the MCP endpoint could not be started again on port ${o.endpoint.port}: ${(e as Error).message}`);
        }
      }
      for (const b of stopped ? [] : o.bridges()) {
        // a bridge that exited but was not reaped by its CLI (a zombie) is dead too
        if (sameProcessAlive(b.pid, {}) || restarting.has(b.agent)) continue;
        restarting.add(b.agent);
        o.restartAgent(b.agent, `its MCP bridge (agentmux mcp-server, pid ${b.pid}) died`)
          .catch((e) => o.log(`restarting ${b.agent} failed: ${(e as Error).message}`))
          .finally(() => restarting.delete(b.agent));
      }
    } finally {
      busy = false;
    }
  };
  const timer = (o.clock ?? monotonicClock).every(o.everyMs ?? 2000, () => void tick());
  return {
    stop: () => {
      stopped = true;
      timer.stop();
    },
  };
}

/**
 * What the process-tree check (#31.1) costs a request to the run's MCP endpoint: median ms of a
 * `ping` over a fresh connection (the socket resolved through /proc, the agent's process tree
 * scanned) and over a kept-alive one (the holder checked again only), with and without the check.
 * The test process is the agent's pane process. Depends on how many processes run (reported).
 *   bun bench/peer-check.ts [requests]
 */
import { readdirSync } from "node:fs";
import { McpEndpoint } from "../src/mcp/endpoint.ts";
import { AgentTokens } from "../src/mcp/identity.ts";
import { processTreeCheck } from "../src/mcp/peer.ts";

const N = Number(process.argv[2] ?? 300);
const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! * 1000) / 1000;

async function measure(peer: boolean): Promise<{ fresh: number; kept: number }> {
  const tokens = new AgentTokens();
  const token = tokens.issue("architect", "architect", "/nonexistent");
  tokens.bindProcess("architect", process.pid);
  const handlers = () => ({ listTools: () => [], callTool: async () => ({ content: [] }), initialized: () => {}, listed: () => {} });
  const ep = McpEndpoint.start({ tokens, handlers, log: () => {}, ...(peer ? { peer: processTreeCheck() } : {}) });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const once = async (close: boolean) => {
    const t0 = performance.now();
    const r = await fetch(ep.url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...(close ? { connection: "close" } : {}) },
      body,
    });
    await r.text();
    if (!r.ok) throw new Error(`ping answered ${r.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 20; i++) await once(false); // warm up
  const fresh: number[] = [];
  const kept: number[] = [];
  for (let i = 0; i < N; i++) fresh.push(await once(true));
  for (let i = 0; i < N; i++) kept.push(await once(false));
  ep.stop();
  return { fresh: median(fresh), kept: median(kept) };
}

const processes = readdirSync("/proc").filter((n) => /^\d+$/.test(n)).length;
const without = await measure(false);
const withCheck = await measure(true);
console.log(`${N} pings each; ${processes} processes on this machine`);
console.log(`without the check: fresh connection ${without.fresh} ms, kept alive ${without.kept} ms`);
console.log(`with the check:    fresh connection ${withCheck.fresh} ms, kept alive ${withCheck.kept} ms`);
console.log(
  JSON.stringify({
    bench: "peer-check",
    processes,
    fresh_ms: withCheck.fresh,
    fresh_without_ms: without.fresh,
    kept_ms: withCheck.kept,
    kept_without_ms: without.kept,
    fresh_added_ms: Math.round((withCheck.fresh - without.fresh) * 1000) / 1000,
    kept_added_ms: Math.round((withCheck.kept - without.kept) * 1000) / 1000,
  }),
);

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync, renameSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { watchMcp } from "../../src/daemon/mcp-host.ts";
import { isolatedBinary, killTmuxServer } from "../e2e/harness.ts";
import { waitFor } from "../helpers/wait.ts";
import { makeZombie } from "../helpers/processes.ts";
import { makeFixture, startEndpoint } from "../mcp/harness.ts";
import { jsonEvents, readState, startDemo, tmux, waitForState } from "./harness.ts";

/**
 * The link between agents and the orchestrator under faults, through the compiled binary:
 * the tool-event log cut or swapped under a live run (#18.4), and a dead MCP bridge or
 * endpoint (#18.5). Each run must still finish, and the orchestrator log must say what happened.
 */
let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

const logOf = (dir: string) => readFileSync(join(dir, "orchestrator.log"), "utf8");

describe("tool_events.jsonl cut or swapped while the run goes on (#18.4)", () => {
  for (const [what, act, said] of [
    ["truncated to nothing", (p: string) => truncateSync(p, 0), "tool_events.jsonl was truncated"],
    ["rotated away (a new file takes its place)", (p: string) => renameSync(p, `${p}.1`), "tool_events.jsonl was "],
  ] as const) {
    test(`${what} after the plan was accepted: the later calls are still applied and the run finishes`, async () => {
      const run = startDemo(bin, { scenario: "parallel", thinkMs: 300, sockets });
      const { dir } = await waitForState(run, "implementing", (s) => s.phase === "implementing" && s.tool_cursor > 0);
      act(join(dir, "tool_events.jsonl"));
      const r = await run.done;
      if (r.code !== 0) console.error(r.stdout, r.stderr, logOf(dir));
      expect(r.code).toBe(0);
      expect(jsonEvents(r.stdout).find((e) => e.kind === "result")?.outcome).toBe("success");
      expect(logOf(dir)).toContain(said);
      expect(readState(dir).phase).toBe("done");
    }, 240_000);
  }
});

/** Pids of `agentmux mcp-server` processes under the panes of this tmux server only. */
function bridgePids(socket: string): number[] {
  const panePids = tmux(socket, "list-panes", "-a", "-F", "#{pane_pid}").out.split("\n").filter(Boolean).map(Number);
  const parent = new Map<number, number>();
  const args = new Map<number, string>();
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      args.set(Number(d), readFileSync(`/proc/${d}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      /* gone */
    }
  }
  const under = (pid: number): boolean => {
    for (let p = pid, i = 0; p > 1 && i < 20; p = parent.get(p) ?? 0, i++) if (panePids.includes(p)) return true;
    return false;
  };
  return [...args].filter(([pid, a]) => / mcp-server\s*$/.test(a) && under(pid)).map(([pid]) => pid);
}

describe("a dead MCP bridge or endpoint is noticed and recovered (#18.5)", () => {
  test("an agent's stdio bridge (mcp_transport: stdio) killed mid-task: the agent is restarted with its prompt and the run finishes", async () => {
    const run = startDemo(bin, { scenario: "commit_message", thinkMs: 600, sockets, config: { providers: { sim: { mcp_transport: "stdio" } } } });
    const { dir } = await waitForState(run, "the architect working", (s) => s.phase === "architecting" && s.agents?.architect?.status === "working");
    const [pid] = await waitFor("the architect's bridge", () => {
      const pids = bridgePids(run.socket);
      return pids.length ? pids : null;
    });
    process.kill(pid!, "SIGKILL");
    const r = await run.done;
    if (r.code !== 0) console.error(r.stdout, r.stderr, logOf(dir));
    expect(r.code).toBe(0);
    expect(logOf(dir)).toContain(`architect: its MCP bridge (agentmux mcp-server, pid ${pid}) died; restarting the agent`);
    expect(readState(dir).phase).toBe("done");
  }, 240_000);

  test("the endpoint stopped answering: started again on the same port, the agents' configured URL works again", async () => {
    const fx = await makeFixture();
    const ep = startEndpoint(fx);
    const logs: string[] = [];
    const watch = watchMcp({
      endpoint: ep.endpoint,
      bridges: () => [],
      restartAgent: async () => {},
      fail: (e) => logs.push(`FAIL ${e}`),
      log: (m) => logs.push(m),
      everyMs: 100,
    });
    try {
      const url = ep.endpoint.url;
      const token = ep.tokens.issue("architect", "architect", fx.projectDir);
      ep.endpoint.stop(); // it died
      await waitFor("the endpoint to answer again", () => ep.endpoint.healthy(), { timeoutMs: 10_000 });
      expect(ep.endpoint.url).toBe(url);
      const client = new Client({ name: "t", version: "0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      expect((await client.listTools()).tools.length).toBe(3);
      await client.close();
      expect(logs.join("\n")).toContain("stopped answering; starting it again");
      expect(logs.join("\n")).toContain(`MCP endpoint answering again on ${url}`);
    } finally {
      watch.stop();
      ep.stop();
      fx.cleanup();
    }
  });
});

test("a health check in flight when the run ends never starts the stopped endpoint again (the finished orchestrator must exit)", async () => {
  let answer: (ok: boolean) => void = () => {};
  let checks = 0;
  let restarts = 0;
  const endpoint = {
    port: 1,
    url: "http://127.0.0.1:1/mcp",
    healthy: () => new Promise<boolean>((r) => ((answer = r), checks++)),
    restart: () => void restarts++,
  } as unknown as Parameters<typeof watchMcp>[0]["endpoint"];
  const watch = watchMcp({ endpoint, bridges: () => [], restartAgent: async () => {}, fail: () => {}, log: () => {}, everyMs: 10 });
  await waitFor("a health check in flight", () => checks > 0);
  watch.stop(); // the run ended; its endpoint is stopped next and stops answering
  answer(false);
  await new Promise((r) => setImmediate(r)); // the in-flight check's continuation has run by now
  expect(restarts).toBe(0);
  expect(checks).toBe(1);
});

test("a bridge that died but was not reaped (a zombie: kill(pid, 0) still succeeds) is dead: its agent is restarted", async () => {
  const zombie = await makeZombie();
  try {
    const endpoint = { port: 1, url: "http://127.0.0.1:1/mcp", healthy: async () => true, restart: () => {} } as unknown as Parameters<
      typeof watchMcp
    >[0]["endpoint"];
    const restarted: string[] = [];
    const watch = watchMcp({
      endpoint,
      bridges: () => [{ agent: "architect", pid: zombie.pid }],
      restartAgent: async (a, why) => void restarted.push(`${a}: ${why}`),
      fail: () => {},
      log: () => {},
      everyMs: 10,
    });
    try {
      await waitFor("the agent restarted", () => restarted.length > 0, { timeoutMs: 5000 });
      expect(restarted[0]).toBe(`architect: its MCP bridge (agentmux mcp-server, pid ${zombie.pid}) died`);
    } finally {
      watch.stop();
    }
  } finally {
    zombie.stop();
  }
});

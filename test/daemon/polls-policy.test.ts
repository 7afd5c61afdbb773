/**
 * The orchestrator's polls on a fake clock: the MCP watch (every 2 s: a dead endpoint started
 * again, an agent whose stdio bridge died restarted once) and the tmux loss (a missing session
 * is confirmed 200 ms later before the run is lost, and reported once). Real endpoints, bridges
 * and tmux servers are test/fault/mcp-link's and test/e2e's.
 */
import { describe, expect, test } from "bun:test";
import { watchMcp } from "../../src/daemon/mcp-host.ts";
import { TmuxLoss } from "../../src/daemon/tmux-loss.ts";
import type { Tmux } from "../../src/effects/tmux/runner.ts";
import type { Event } from "../../src/schema/events.ts";
import { FakeClock } from "../helpers/fake-clock.ts";

/** let the work a timer started finish (it resolves within microtasks) */
const settle = () => Bun.sleep(0);

/** A pid no process has any more. */
const deadPid = Bun.spawnSync(["true"]).pid;

function mcpWatch(o: { healthy?: () => boolean; restart?: () => void; bridges?: { agent: string; pid: number }[] } = {}) {
  const clock = new FakeClock(0);
  const restarted: string[] = [];
  const failed: string[] = [];
  const logs: string[] = [];
  let endpointRestarts = 0;
  let release: () => void = () => {};
  const endpoint = {
    port: 4100,
    url: "http://127.0.0.1:4100/mcp",
    healthy: async () => o.healthy?.() ?? true,
    restart: () => {
      endpointRestarts++;
      o.restart?.();
    },
  } as unknown as Parameters<typeof watchMcp>[0]["endpoint"];
  const watch = watchMcp({
    endpoint,
    bridges: () => o.bridges ?? [],
    // a restart takes until the test releases it
    restartAgent: (agent, why) => {
      restarted.push(`${agent}: ${why}`);
      return new Promise<void>((r) => (release = r));
    },
    fail: (e) => void failed.push(e),
    log: (m) => void logs.push(m),
    clock,
  });
  return { clock, watch, restarted, failed, logs, endpointRestarts: () => endpointRestarts, release: () => release() };
}

describe("the MCP watch, every 2 s on the clock", () => {
  test("an agent whose bridge died is restarted at the next look, once while its restart is under way, again once it ended", async () => {
    const w = mcpWatch({ bridges: [{ agent: "coder_1", pid: deadPid }] });
    w.clock.advance(1_999);
    await settle();
    expect(w.restarted).toEqual([]);
    w.clock.advance(1);
    await settle();
    expect(w.restarted).toEqual([`coder_1: its MCP bridge (agentmux mcp-server, pid ${deadPid}) died`]);
    w.clock.advance(4_000);
    await settle();
    expect(w.restarted).toHaveLength(1);
    w.release();
    await settle();
    w.clock.advance(2_000);
    await settle();
    expect(w.restarted).toHaveLength(2);
    w.watch.stop();
    expect(w.clock.timers).toBe(0);
  });

  test("a live bridge is left alone", async () => {
    const w = mcpWatch({ bridges: [{ agent: "coder_1", pid: process.pid }] });
    w.clock.advance(10_000);
    await settle();
    expect(w.restarted).toEqual([]);
    w.watch.stop();
  });

  test("an endpoint that stopped answering is started again, said in the log; one that cannot start fails the run's effect", async () => {
    const up = mcpWatch({ healthy: () => false });
    up.clock.advance(2_000);
    await settle();
    expect(up.endpointRestarts()).toBe(1);
    expect(up.logs).toContain("MCP endpoint on port 4100 stopped answering; starting it again");
    up.watch.stop();
    const down = mcpWatch({
      healthy: () => false,
      restart: () => {
        throw new Error("EADDRINUSE");
      },
    });
    down.clock.advance(2_000);
    await settle();
    expect(down.failed).toEqual(["the MCP endpoint could not be started again on port 4100: EADDRINUSE"]);
    down.watch.stop();
  });
});

function tmuxLoss(answers: boolean[]) {
  const clock = new FakeClock(0);
  const events: Event[] = [];
  let asked = 0;
  const tmux = {
    socket: "amx-fake",
    hasSession: async () => answers[Math.min(asked++, answers.length - 1)]!,
    // serverRunning: the server still answers
    exec: async () => ({ code: 0, stdout: "", stderr: "" }),
    run: async () => "",
  } as unknown as Tmux;
  const loss = new TmuxLoss(tmux, "amx-run", (e) => void events.push(e), clock);
  return { clock, loss, events, asked: () => asked };
}

describe("the tmux loss, confirmed on the clock", () => {
  test("one failed look is not a loss: the session is looked at again 200 ms later", async () => {
    const t = tmuxLoss([false, true]);
    const gone = t.loss.check();
    await settle();
    expect(t.asked()).toBe(1);
    t.clock.advance(199);
    await settle();
    expect(t.asked()).toBe(1);
    t.clock.advance(1);
    expect(await gone).toBe(false);
    expect(t.asked()).toBe(2);
    expect(t.events).toEqual([]);
  });

  test("a session missing twice 200 ms apart loses the run, reported once however often it is asked", async () => {
    const t = tmuxLoss([false]);
    const gone = t.loss.check();
    const again = t.loss.check();
    await settle();
    t.clock.advance(200);
    expect(await gone).toBe(true);
    expect(await again).toBe(true);
    expect(await t.loss.check()).toBe(true);
    expect(t.events.map((e) => e.type)).toEqual(["run_lost"]);
    expect((t.events[0] as Extract<Event, { type: "run_lost" }>).reason).toContain("the tmux session amx-run was closed");
  });
});

/**
 * The TurnWatcher's policies on a fake clock, fed the recorded qwen screens (test/fixtures/
 * screens/qwen) by hand instead of through tmux: the settle window, the 10 s of stillness a turn
 * without a sign of work needs (#27), no turn end while a prompt is being delivered, and
 * watchdog.stuck_after_s. Seconds of policy run in milliseconds; test/daemon/turn-signs holds the
 * same rules against a real tmux pane.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { NO_SIGN_STILL_MS, TurnWatcher } from "../../src/daemon/turns.ts";
import type { Event } from "../../src/schema/events.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

const QWEN = join(REPO_ROOT, "test", "fixtures", "screens", "qwen", "0.15.10");
const qwen = loadConfig({ projectDir: "/nonexistent-project", env: { HOME: "/nonexistent-home" } }).config.providers.qwen!;
const SETTLE = Math.max(qwen.ready.settle_ms, 100);
const POLL = 50;
const AGENT = "reviewer_logic";

function recorded(name: "ready" | "busy" | "paste"): { screen: string; title: string } {
  const lines = readFileSync(join(QWEN, `${name}.txt`), "utf8").split("\n");
  const title = lines.find((l) => l.startsWith("title: "))!.slice("title: ".length);
  return { title, screen: lines.filter((l) => !l.startsWith("# ") && !l.startsWith("title: ")).join("\n") };
}

/** A watcher over one pane whose screen the test sets, on a clock the test moves. */
function watch(o: { stuckAfterMs?: number; lastToolCall?: () => number } = {}) {
  const clock = new FakeClock(1_000_000);
  const events: Event[] = [];
  let shown = recorded("ready");
  let looks = 0;
  const watcher = new TurnWatcher({
    screens: async (panes) => (looks++, new Map(panes.map((p) => [p, { dead: false, exitStatus: "", inMode: false, ...shown }]))),
    watched: () => [{ agent: AGENT, pane: "%1", provider: qwen }],
    push: (e) => events.push(e),
    log: () => {},
    stuckAfterMs: o.stuckAfterMs ?? 0,
    pollMs: POLL,
    clock,
    ...(o.lastToolCall ? { lastToolCall: o.lastToolCall } : {}),
  });
  /** move the clock `ms` forward a poll at a time, letting each look finish */
  const run = async (ms: number) => {
    for (let left = ms; left > 0; left -= POLL) {
      clock.advance(Math.min(POLL, left));
      await new Promise((r) => setImmediate(r));
    }
  };
  const show = (name: "ready" | "busy" | "paste") => void (shown = recorded(name));
  const of = (type: Event["type"]) => events.filter((e) => e.type === type);
  watcher.start();
  return { clock, watcher, run, show, of, looks: () => looks };
}

describe("the turn watcher's policies, on a fake clock", () => {
  test("a turn with no sign of work is not ended before its screen has been still 10 s, and is at 10 s", async () => {
    const w = watch();
    await w.run(200);
    w.watcher.turnStarted(AGENT);
    const from = w.clock.now();
    await w.run(NO_SIGN_STILL_MS - 100);
    expect(w.looks()).toBeGreaterThan(150);
    expect(w.of("agent_turn_ended")).toEqual([]);
    await w.run(200);
    expect(w.of("agent_turn_ended").length).toBe(1);
    const end = w.watcher.lastTurnEnd(AGENT)!;
    expect(end.settledAt).toBe(from);
    expect(end.endedAt - from).toBeGreaterThanOrEqual(NO_SIGN_STILL_MS);
    expect(end.endedAt - from).toBeLessThan(NO_SIGN_STILL_MS + POLL);
    w.watcher.stop();
  });

  test("a busy screen that goes idle ends the turn once it has settled, not before", async () => {
    const w = watch();
    w.show("busy");
    await w.run(200);
    w.watcher.turnStarted(AGENT);
    await w.run(1_000);
    w.show("ready");
    await w.run(POLL);
    const idleAt = w.clock.now();
    await w.run(SETTLE - 2 * POLL);
    expect(w.of("agent_turn_ended")).toEqual([]);
    await w.run(3 * POLL);
    expect(w.of("agent_turn_ended").length).toBe(1);
    const end = w.watcher.lastTurnEnd(AGENT)!;
    expect(end.endedAt - end.settledAt).toBeGreaterThanOrEqual(SETTLE);
    expect(end.endedAt - idleAt).toBeLessThan(SETTLE + POLL);
    // it is idle now, and a second look changes nothing
    expect(w.watcher.isIdle(AGENT)).toBe(true);
    await w.run(20_000);
    expect(w.of("agent_turn_ended").length).toBe(1);
    w.watcher.stop();
  });

  test("a tool call is a sign of work: the turn ends after the settle window, not after 10 s", async () => {
    let call = 0;
    const w = watch({ lastToolCall: () => call });
    await w.run(200);
    w.watcher.turnStarted(AGENT);
    await w.run(2_000);
    expect(w.of("agent_turn_ended")).toEqual([]);
    call = w.clock.now();
    await w.run(POLL);
    expect(w.of("agent_turn_ended").length).toBe(1);
    w.watcher.stop();
  });

  test("no turn end while a prompt is being delivered; the turn after it ends as usual", async () => {
    const w = watch();
    w.show("busy");
    await w.run(200);
    w.watcher.turnStarted(AGENT);
    await w.run(500);
    w.watcher.delivering(AGENT, true);
    w.show("ready");
    await w.run(30_000);
    expect(w.of("agent_turn_ended")).toEqual([]);
    w.watcher.delivering(AGENT, false);
    w.watcher.turnStarted(AGENT);
    w.show("busy");
    await w.run(500);
    w.show("ready");
    await w.run(SETTLE + 2 * POLL);
    expect(w.of("agent_turn_ended").length).toBe(1);
    w.watcher.stop();
  });

  test("the CLI's own turn-end signal ends a turn that worked at once, on a screen the ready pattern does not know", async () => {
    const w = watch();
    w.show("busy");
    await w.run(200);
    w.watcher.turnStarted(AGENT);
    await w.run(500);
    w.show("paste");
    await w.run(20_000);
    expect(w.of("agent_turn_ended")).toEqual([]);
    w.watcher.cliTurnEnded(AGENT);
    await w.run(POLL);
    expect(w.of("agent_turn_ended").length).toBe(1);
    w.watcher.stop();
  });

  test("stuck after stuck_after_s without output, once; active again when the screen changes", async () => {
    const w = watch({ stuckAfterMs: 60_000 });
    w.show("busy");
    await w.run(200);
    w.watcher.turnStarted(AGENT);
    await w.run(59_800);
    expect(w.of("agent_stuck")).toEqual([]);
    await w.run(300);
    expect(w.of("agent_stuck").length).toBe(1);
    expect((w.of("agent_stuck")[0] as Extract<Event, { type: "agent_stuck" }>).reason).toBe("no output and no tool call for 60 s");
    await w.run(120_000);
    expect(w.of("agent_stuck").length).toBe(1);
    const active = w.of("agent_active").length;
    w.show("paste");
    await w.run(POLL);
    expect(w.of("agent_active").length).toBe(active + 1);
    w.watcher.stop();
  });

  test("stop leaves no timer behind", async () => {
    const w = watch();
    w.watcher.turnStarted(AGENT);
    await w.run(500);
    w.watcher.stop();
    expect(w.clock.timers).toBe(0);
    const looks = w.looks();
    await w.run(5_000);
    expect(w.looks()).toBe(looks);
  });
});

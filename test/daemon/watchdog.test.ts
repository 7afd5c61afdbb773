import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/load.ts";
import { startWatchdog } from "../../src/daemon/watchdog.ts";
import type { Event } from "../../src/schema/events.ts";
import type { State } from "../../src/schema/state.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { freshState } from "../orchestrator/fixtures.ts";

const base = loadConfig({ projectDir: "/nonexistent-project", env: { HOME: "/nonexistent-home" } }).config;

/** A watchdog on a fake clock, over a loop that records what it is told. */
function watched(o: { watchdog?: Partial<typeof base.watchdog>; headless?: boolean; state: (clock: FakeClock) => State }) {
  const clock = new FakeClock();
  const pushed: Event[] = [];
  let beats = 0;
  let tmuxChecks = 0;
  const loop = { state: o.state(clock), finished: false, push: (e: Event) => void pushed.push(e) };
  const dog = startWatchdog({
    config: { ...base, watchdog: { ...base.watchdog, ...o.watchdog } },
    headless: o.headless ?? false,
    loop,
    log: () => {},
    tmuxGone: async () => (tmuxChecks++, false),
    beat: () => void beats++,
    clock,
  });
  return { clock, pushed, loop, dog, beats: () => beats, tmuxChecks: () => tmuxChecks };
}

const iso = (ms: number) => new Date(ms).toISOString();
const running = (clock: FakeClock, patch: Partial<State> = {}): State => ({ ...freshState(), active_since: iso(clock.now()), active_ms: 0, ...patch });

describe("the watchdog's policies, on a fake clock", () => {
  test("the run limit fires once, within a tick of its deadline, counting earlier lifetimes", () => {
    const w = watched({ watchdog: { run_timeout_s: 60 }, state: (c) => running(c, { active_ms: 50_000 }) });
    w.clock.advance(9_500);
    expect(w.pushed).toEqual([]);
    w.clock.advance(1_000);
    expect(w.pushed.map((e) => e.type)).toEqual(["timeout"]);
    expect((w.pushed[0] as Extract<Event, { type: "timeout" }>).reason).toContain("watchdog.run_timeout_s = 60, counted across resumes");
    w.clock.advance(60_000);
    expect(w.pushed.length).toBe(1);
    w.dog.stop();
  });

  test("a headless run without a limit of its own gets the headless one; an attended run gets none", () => {
    const headless = watched({ headless: true, state: (c) => running(c) });
    const attended = watched({ state: (c) => running(c) });
    const hours = 1000 * (base.headless.run_timeout_s + 1);
    headless.clock.advance(hours);
    attended.clock.advance(hours);
    expect(headless.pushed.some((e) => e.type === "timeout" && e.reason.includes("headless.run_timeout_s"))).toBe(true);
    expect(attended.pushed).toEqual([]);
  });

  test("the phase limit counts from the phase's last history entry, once per phase entry", () => {
    const w = watched({
      watchdog: { phase_timeout_s: 30 },
      state: (c) => running(c, { history: [{ phase: "architecting", event: "feature_created", at: iso(c.now()) }] }),
    });
    w.clock.advance(29_000);
    expect(w.pushed).toEqual([]);
    w.clock.advance(2_000);
    expect(w.pushed.map((e) => e.type === "timeout" && e.reason)).toEqual(["phase architecting exceeded its time limit (watchdog.phase_timeout_s = 30)"]);
    w.clock.advance(60_000);
    expect(w.pushed.length).toBe(1);
  });

  test("a rate-limited agent is told its limit reset at the time its CLI named, else after limit_retry_s, once per limit", () => {
    const w = watched({
      watchdog: { limit_retry_s: 120 },
      state: (c) => {
        const s = running(c);
        const agent = (reset_at: string | null) => ({
          role: "coder" as const,
          label: "c",
          status: "rate_limited" as const,
          since: iso(c.now()),
          limit: { text: "limit", reset_at, at: iso(c.now()) },
        });
        return { ...s, agents: { named: agent(iso(c.now() + 45_000)), unnamed: agent(null) } };
      },
    });
    w.clock.advance(44_000);
    expect(w.pushed).toEqual([]);
    w.clock.advance(1_000);
    expect(w.pushed.map((e) => e.type === "limit_reset" && e.agent)).toEqual(["named"]);
    w.clock.advance(75_000);
    expect(w.pushed.map((e) => e.type === "limit_reset" && e.agent)).toEqual(["named", "unnamed"]);
    w.clock.advance(600_000);
    expect(w.pushed.length).toBe(2);
  });

  test("it beats twice a second, looks for tmux every two seconds, does nothing once the run finished, and stop ends its timer", () => {
    const w = watched({ state: (c) => running(c) });
    w.clock.advance(10_000);
    expect(w.beats()).toBe(20);
    expect(w.tmuxChecks()).toBe(5);
    w.loop.finished = true;
    w.clock.advance(10_000);
    expect(w.beats()).toBe(20);
    w.dog.stop();
    expect(w.clock.timers).toBe(0);
  });
});

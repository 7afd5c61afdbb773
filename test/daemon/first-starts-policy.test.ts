/**
 * The first-starts stagger (FirstStarts) on a fake clock against screens set by hand: the second
 * start of a CLI waits for its first start's ready prompt (not while it shows busy), a trust
 * dialog or its exit, and never longer than 90 s or the CLI's ready timeout. What takes minutes
 * against a slow CLI takes milliseconds here; test/daemon/first-starts holds the same on real panes.
 */
import { describe, expect, test } from "bun:test";
import { FirstStarts, MAX_WAIT_MS, POLL_MS, type PaneLook } from "../../src/daemon/first-starts.ts";
import type { Snapshot } from "../../src/effects/tmux/screen.ts";
import { ReadyGate } from "../../src/schema/config.ts";
import { FakeClock } from "../helpers/fake-clock.ts";

const GATE = ReadyGate.parse({ pattern: "^\\[cli\\] ready", busy_pattern: "\\[cli\\] working", settle_ms: 0, timeout_ms: 300_000 });
const TRUST = [{ detect: "Trust this folder\\?" }];

function lab() {
  const clock = new FakeClock(0);
  const screens = new Map<string, Partial<Snapshot>>();
  const look: PaneLook = async (pane) => ({ dead: false, exitStatus: "", inMode: false, title: "", screen: "", ...screens.get(pane) });
  const logs: { msg: string; data?: Record<string, unknown> }[] = [];
  const starts = new FirstStarts(look, (msg, f) => void logs.push({ msg, ...(f?.data ? { data: f.data } : {}) }), clock);
  /** the second start of `command`: whether it went yet */
  const second = (command: string) => {
    const s = { went: false };
    void starts.before(command, "planner").then(() => (s.went = true));
    return s;
  };
  /** let the looks under way finish (they resolve within microtasks) */
  const settle = () => Bun.sleep(0);
  /** move the clock by `ms`, a poll at a time, each look finished before the next */
  const pass = async (ms: number) => {
    for (let t = 0; t < ms; t += POLL_MS) {
      await settle();
      clock.advance(Math.min(POLL_MS, ms - t));
    }
    await settle();
  };
  return { clock, screens, starts, logs, second, settle, pass };
}

describe("first starts of one CLI, one after another, on a fake clock", () => {
  test("the second start waits while the first's pane is blank or busy, and goes at its first look at the ready prompt", async () => {
    const l = lab();
    (await l.starts.before("cli", "architect"))("%1", GATE);
    const s = l.second("cli");
    await l.pass(5_000);
    expect(s.went).toBe(false);
    l.screens.set("%1", { screen: "[cli] ready\n[cli] working on it" });
    await l.pass(5_000);
    expect(s.went).toBe(false);
    l.screens.set("%1", { screen: "[cli] ready\n> " });
    await l.pass(POLL_MS);
    expect(s.went).toBe(true);
    // the wait is logged in the clock's time: about 10 s of it
    const waited = l.logs.find((x) => x.data?.waited_ms !== undefined)!.data!.waited_ms as number;
    expect(waited).toBeGreaterThanOrEqual(10_000);
    expect(waited).toBeLessThanOrEqual(10_000 + POLL_MS);
  });

  test("once the first got ready, later starts of that CLI go at once; another CLI never waits for it", async () => {
    const l = lab();
    (await l.starts.before("cli", "architect"))("%1", GATE);
    const other = l.second("othercli");
    await l.settle();
    expect(other.went).toBe(true);
    l.screens.set("%1", { screen: "[cli] ready" });
    await l.pass(POLL_MS);
    const later = l.second("cli");
    await l.settle();
    expect(later.went).toBe(true);
  });

  test("a first start that shows a trust dialog, or whose pane exits, lets the next start go", async () => {
    const l = lab();
    (await l.starts.before("a", "architect"))("%1", GATE, TRUST);
    (await l.starts.before("b", "architect"))("%2", GATE);
    const [a, b] = [l.second("a"), l.second("b")];
    await l.pass(1_000);
    expect([a.went, b.went]).toEqual([false, false]);
    l.screens.set("%1", { screen: "Trust this folder? (y/n)" });
    l.screens.set("%2", { dead: true, exitStatus: "1" });
    await l.pass(POLL_MS);
    expect([a.went, b.went]).toEqual([true, true]);
  });

  test("a first start that never gets ready holds the next one at most 90 s, or its CLI's ready timeout when shorter", async () => {
    const l = lab();
    (await l.starts.before("slow", "architect"))("%1", GATE);
    (await l.starts.before("quick", "architect"))("%2", { ...GATE, timeout_ms: 20_000 });
    const [slow, quick] = [l.second("slow"), l.second("quick")];
    await l.pass(20_000 - POLL_MS);
    expect([slow.went, quick.went]).toEqual([false, false]);
    await l.pass(2 * POLL_MS);
    expect([slow.went, quick.went]).toEqual([false, true]);
    await l.pass(MAX_WAIT_MS - 20_000 - 2 * POLL_MS);
    expect(slow.went).toBe(false);
    await l.pass(2 * POLL_MS);
    expect(slow.went).toBe(true);
  });
});

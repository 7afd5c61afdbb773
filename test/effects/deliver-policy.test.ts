/**
 * The delivery policy of PaneWriter on a fake clock against a pane the test draws by hand (no
 * tmux): a first prompt waits for the ready prompt and a settled screen, an Enter that is not
 * taken is sent again after verify_ms up to submit.retries times, a paste that never shows in an
 * empty input box is pasted again up to 3 times, and readiness is bounded by ready.timeout_ms.
 * test/tmux/deliver holds the same writer against real tmux panes.
 */
import { describe, expect, test } from "bun:test";
import { ReadyGate, SubmitStrategy } from "../../src/schema/config.ts";
import { PaneWriter, type DeliveryResult } from "../../src/effects/tmux/deliver.ts";
import type { PaneIO } from "../../src/effects/tmux/pane-io.ts";
import { FakeClock } from "../helpers/fake-clock.ts";

const PROMPT = "Read and follow the instructions in /s/prompts/coder_1.md";
const ready = ReadyGate.parse({ pattern: "^> $", busy_pattern: "working", settle_ms: 500, timeout_ms: 5_000 });
const submit = SubmitStrategy.parse({ delay_ms: 100, retries: 2, verify_ms: 1_500 });

/**
 * A CLI's pane: "starting…" until `readyAt`, then an empty input box; a paste shows in the box
 * (after `dropPastes` pastes it ignored), Enter makes it busy (after `ignoreEnters` it ignored).
 */
function fakePane(clock: FakeClock, o: { readyAt?: number; dropPastes?: number; ignoreEnters?: number; redrawAt?: number } = {}) {
  const t0 = clock.now();
  let input = "";
  let busy = false;
  const pastes: number[] = [];
  const enters: number[] = [];
  let dropPastes = o.dropPastes ?? 0;
  let ignoreEnters = o.ignoreEnters ?? 0;
  const io: PaneIO = {
    async look() {
      const up = clock.now() - t0 >= (o.readyAt ?? 0);
      // its banner redrawn once at redrawAt (an animated logo, a resize): the screen changed, the CLI is as ready as before
      const banner = o.redrawAt !== undefined && clock.now() - t0 >= o.redrawAt ? "fake cli*" : "fake cli";
      const screen = !up ? "starting…" : busy ? `${banner}\nworking on it` : `${banner}\n> ${input}`;
      return { dead: false, exitStatus: "", inMode: false, title: "fake", screen };
    },
    async keys(_pane, keys) {
      if (keys.join(" ") !== "Enter") return;
      enters.push(clock.now() - t0);
      if (ignoreEnters > 0) ignoreEnters--;
      else if (input) ((busy = true), (input = ""));
    },
    async paste(_pane, text) {
      pastes.push(clock.now() - t0);
      if (dropPastes > 0) dropPastes--;
      else input = text;
    },
  };
  return { io, pastes, enters };
}

/** Run one delivery, moving the clock 10 ms at a time until it resolves; with how long it took. */
async function deliver(o: Parameters<typeof fakePane>[1] & { acted?: (enters: number[]) => boolean } = {}) {
  const clock = new FakeClock();
  const pane = fakePane(clock, o);
  const writer = new PaneWriter(pane.io, () => {}, clock);
  let result: DeliveryResult | null = null;
  const start = clock.now();
  void writer
    .deliver("%1", PROMPT, { submit, ready, trust: [], first: true, ...(o.acted ? { acted: () => o.acted!(pane.enters) } : {}) })
    .then((r) => (result = r));
  for (let i = 0; result === null; i++) {
    if (i > 10_000) throw new Error("the delivery never ended");
    await new Promise((r) => setImmediate(r));
    if (result === null) clock.advance(10);
  }
  return { result: result as DeliveryResult, took: clock.now() - start, ...pane };
}

describe("delivery's policies, on a fake clock", () => {
  test("a first prompt is pasted once the ready prompt has shown on a screen still for settle_ms, and taken at the first Enter", async () => {
    const d = await deliver({ readyAt: 2_000 });
    expect(d.result).toMatchObject({ ok: true, attempts: 1 });
    expect(d.pastes.length).toBe(1);
    expect(d.pastes[0]!).toBeGreaterThanOrEqual(2_000 + ready.settle_ms);
    expect(d.pastes[0]!).toBeLessThan(2_000 + ready.settle_ms + 30);
    // the Enter follows the paste after submit.delay_ms
    expect(d.enters.length).toBe(1);
    expect(d.enters[0]! - d.pastes[0]!).toBeGreaterThanOrEqual(submit.delay_ms);
  });

  test("a pane prepared ahead takes its first prompt at once, though its screen changed after it was found ready: no second settle_ms", async () => {
    const clock = new FakeClock();
    const pane = fakePane(clock, { readyAt: 1_000, redrawAt: 4_000 });
    const writer = new PaneWriter(pane.io, () => {}, clock);
    const opts = { submit, ready, trust: [], first: true };
    let prepared = null as boolean | null;
    void writer.prepare("%1", opts).then((r) => (prepared = r));
    for (let i = 0; prepared === null && i < 1_000; i++) {
      await new Promise((r) => setImmediate(r));
      if (prepared === null) clock.advance(10);
    }
    expect(prepared).toBe(true);
    expect(clock.now() - Date.UTC(2026, 0, 1)).toBeGreaterThanOrEqual(1_000 + ready.settle_ms);
    // the phase before works on; the banner redraws; then the handoff
    clock.advance(5_000 - (clock.now() - Date.UTC(2026, 0, 1)));
    const start = clock.now();
    let result: DeliveryResult | null = null;
    void writer.deliver("%1", PROMPT, opts).then((r) => (result = r));
    for (let i = 0; result === null && i < 1_000; i++) {
      await new Promise((r) => setImmediate(r));
      if (result === null) clock.advance(10);
    }
    expect(result).toMatchObject({ ok: true, attempts: 1 });
    expect(pane.pastes.length).toBe(1);
    expect(pane.pastes[0]! - (start - Date.UTC(2026, 0, 1))).toBeLessThan(30);
  });

  test("a first prompt to a pane not prepared ahead waits settle_ms after its screen last changed", async () => {
    const d = await deliver({ readyAt: 0, redrawAt: 300 });
    expect(d.pastes[0]!).toBeGreaterThanOrEqual(300 + ready.settle_ms);
  });

  test("an Enter that is not taken is sent again after verify_ms, up to submit.retries more times", async () => {
    const d = await deliver({ ignoreEnters: 2 });
    expect(d.result).toMatchObject({ ok: true, attempts: 3 });
    expect(d.enters.length).toBe(3);
    for (const [a, b] of [
      [0, 1],
      [1, 2],
    ] as const) {
      expect(d.enters[b]! - d.enters[a]!).toBeGreaterThanOrEqual(submit.verify_ms);
      expect(d.enters[b]! - d.enters[a]!).toBeLessThan(submit.verify_ms + 50);
    }
  });

  test("a prompt never taken fails after 1 + retries Enters, naming them", async () => {
    const d = await deliver({ ignoreEnters: 99 });
    expect(d.result.ok).toBe(false);
    expect(d.enters.length).toBe(1 + submit.retries);
    expect(d.result.ok === false && d.result.reason).toBe("the prompt was pasted but not accepted after 3 submit attempts (Enter)");
  });

  test("no retry Enter into an agent that already acted on the prompt", async () => {
    // the pane never shows the Enter taken, but the agent called a tool after it
    const d = await deliver({ ignoreEnters: 99, acted: (enters) => enters.length > 0 });
    expect(d.result).toMatchObject({ ok: true, attempts: 1 });
    expect(d.enters.length).toBe(1);
  });

  test("a paste that never shows in an empty input box is pasted again, up to 3 times in all", async () => {
    const twice = await deliver({ dropPastes: 2 });
    expect(twice.result).toMatchObject({ ok: true });
    expect(twice.pastes.length).toBe(3);
    expect(twice.pastes[1]! - twice.pastes[0]!).toBeGreaterThanOrEqual(3_000);
    const always = await deliver({ dropPastes: 99 });
    expect(always.result.ok === false && always.result.reason).toBe("the pasted text never showed in the input box (pasted 3 times)");
    expect(always.pastes.length).toBe(3);
    expect(always.enters).toEqual([]);
  });

  test("a pane that never shows its ready prompt fails after ready.timeout_ms, saying so, with nothing sent", async () => {
    const d = await deliver({ readyAt: 60_000 });
    expect(d.result.ok === false && d.result.reason).toStartWith(`not ready after ${ready.timeout_ms} ms: the ready prompt never showed`);
    expect(d.took).toBeGreaterThanOrEqual(ready.timeout_ms);
    expect(d.took).toBeLessThan(ready.timeout_ms + 50);
    expect(d.pastes).toEqual([]);
    expect(d.enters).toEqual([]);
  });
});

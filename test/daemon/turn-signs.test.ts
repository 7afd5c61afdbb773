/**
 * A turn ends only after a sign of work, and only for the task whose prompt was accepted
 * before it (#27). qwen 0.15.10 showed its idle prompt for about a second after a prompt left
 * its box, before its spinner; agentmux took that for a finished turn ("ended its turn 3
 * times"), and a review turn that ended while the summary prompt was being delivered was
 * charged to the summary. The recorded qwen screens (test/fixtures/screens/qwen) in a real tmux
 * pane, read by the TurnWatcher with the built-in qwen provider.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { TurnWatcher } from "../../src/daemon/turns.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import type { Provider } from "../../src/schema/config.ts";
import type { Event } from "../../src/schema/events.ts";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir, REPO_ROOT } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

const QWEN = join(REPO_ROOT, "test", "fixtures", "screens", "qwen", "0.15.10");
let root: string;
let socket: string;
let tmux: Tmux;
let qwen: Provider;

beforeAll(async () => {
  root = makeTmpDir("amx-turn-signs-");
  socket = privateSocket();
  tmux = new Tmux(socket);
  qwen = loadConfig({ projectDir: root, env: { HOME: root } }).config.providers.qwen!;
  await tmux.run(["new-session", "-d", "-s", "signs", "-x", "200", "-y", "50", "sh", "-c", "exec tail -f /dev/null"]);
});
afterAll(() => {
  killTmuxServer(socket);
  removeDir(root);
});

/** The recorded screen's body (comment and title lines left out). */
function body(name: string): string {
  return readFileSync(join(QWEN, `${name}.txt`), "utf8")
    .split("\n")
    .filter((l) => !l.startsWith("# ") && !l.startsWith("title: "))
    .join("\n");
}

const SHOW = `clear; cat "$1"; exec tail -f /dev/null`;

async function show(pane: string | null, name: string): Promise<string> {
  const file = join(root, `${name}.txt`);
  writeFileSync(file, body(name));
  const args = ["sh", "-c", SHOW, "sh", file];
  const id = pane ?? (await tmux.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "signs", ...args])).trim();
  if (pane) await tmux.run(["respawn-pane", "-k", "-t", pane, ...args]);
  const last = body(name)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1)!;
  await waitFor(`the pane showing ${name}`, async () => (await tmux.run(["capture-pane", "-p", "-t", id])).includes(last), { timeoutMs: 10_000 });
  return id;
}

function watch(pane: string, o: { lastToolCall?: () => number } = {}) {
  const events: Event[] = [];
  let looks = 0;
  const watcher = new TurnWatcher({
    tmux,
    watched: () => (looks++, [{ agent: "reviewer_logic", pane, provider: qwen }]),
    push: (e) => events.push(e),
    log: () => {},
    stuckAfterMs: 0,
    pollMs: 50,
    ...(o.lastToolCall ? { lastToolCall: o.lastToolCall } : {}),
  });
  const ended = () => events.filter((e) => e.type === "agent_turn_ended").length;
  /** at least n more looks, over at least ms */
  const lookFor = async (n: number, ms: number) => {
    const from = looks;
    const since = performance.now();
    await waitFor(`${n} looks over ${ms} ms`, () => looks - from >= n && performance.now() - since >= ms, { timeoutMs: 30_000 });
  };
  return { watcher, events, ended, lookFor };
}

describe("a turn ends after a sign of work", () => {
  test("qwen's idle prompt before its spinner is not a finished turn; the spinner and the idle prompt after it are", async () => {
    const pane = await show(null, "ready");
    const { watcher, ended, lookFor } = watch(pane);
    watcher.start();
    try {
      watcher.turnStarted("reviewer_logic");
      // well past qwen's settle time (500 ms), still no spinner: the turn has not ended
      await lookFor(20, 2_000);
      expect(ended()).toBe(0);
      await show(pane, "busy");
      await lookFor(3, 200);
      await show(pane, "ready");
      await waitFor("the turn's end", () => ended() === 1, { timeoutMs: 15_000 });
    } finally {
      watcher.stop();
    }
  }, 60_000);

  test("a tool call is a sign of work: a turn too short to show its spinner ends once the screen settles", async () => {
    const pane = await show(null, "ready");
    let call = 0;
    const { watcher, ended, lookFor } = watch(pane, { lastToolCall: () => call });
    watcher.start();
    try {
      watcher.turnStarted("reviewer_logic");
      await lookFor(10, 1_000);
      expect(ended()).toBe(0);
      call = performance.now();
      await waitFor("the turn's end", () => ended() === 1, { timeoutMs: 5_000 });
    } finally {
      watcher.stop();
    }
  }, 60_000);
});

describe("a turn end is charged only to the task whose prompt was accepted before it", () => {
  test("the review turn that ends while the summary prompt is being delivered is not reported; the summary turn's end is", async () => {
    const pane = await show(null, "busy");
    const { watcher, ended, lookFor } = watch(pane);
    watcher.start();
    try {
      watcher.turnStarted("reviewer_logic"); // the review prompt
      await lookFor(3, 200); // busy: the review turn did work
      watcher.delivering("reviewer_logic", true); // the summary prompt waits for the idle prompt
      await show(pane, "ready"); // the review turn ends
      await lookFor(20, 1_500);
      expect(ended()).toBe(0);
      // the summary prompt is accepted: its own turn, which works and ends
      watcher.delivering("reviewer_logic", false);
      watcher.turnStarted("reviewer_logic");
      await show(pane, "busy");
      await lookFor(3, 200);
      await show(pane, "ready");
      await waitFor("the summary turn's end", () => ended() === 1, { timeoutMs: 15_000 });
    } finally {
      watcher.stop();
    }
  }, 60_000);
});

describe("the CLI's own turn-end signal (claude's Stop hook, codex's notify)", () => {
  test("ends a turn that did work at once, even on a screen the ready pattern does not know", async () => {
    const pane = await show(null, "busy");
    const { watcher, ended, lookFor } = watch(pane);
    watcher.start();
    try {
      watcher.turnStarted("reviewer_logic");
      await lookFor(3, 200); // busy: it works
      await show(pane, "paste"); // a screen without qwen's ready prompt
      await lookFor(10, 800);
      expect(ended()).toBe(0);
      watcher.cliTurnEnded("reviewer_logic");
      await waitFor("the turn's end", () => ended() === 1, { timeoutMs: 5_000 });
    } finally {
      watcher.stop();
    }
  }, 60_000);

  test("a signal before the turn showed any work (a late one of the turn before) ends nothing", async () => {
    const pane = await show(null, "paste");
    const { watcher, ended, lookFor } = watch(pane);
    watcher.start();
    try {
      watcher.turnStarted("reviewer_logic");
      watcher.cliTurnEnded("reviewer_logic");
      await lookFor(20, 1_500);
      expect(ended()).toBe(0);
    } finally {
      watcher.stop();
    }
  }, 60_000);
});

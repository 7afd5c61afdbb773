import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { installExitHooks, watchPaneExits, type ExitWatcher } from "../../src/effects/tmux/exits.ts";
import { killTmuxServer } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { receiverCommand, startFixture, type TmuxFixture } from "./setup.ts";
import { PaneWriter } from "../../src/effects/tmux/deliver.ts";
import { ReadyGate, SubmitStrategy } from "../../src/schema/config.ts";

let fixtures: TmuxFixture[] = [];
let watchers: ExitWatcher[] = [];
afterEach(() => {
  for (const w of watchers) w.close();
  for (const f of fixtures) killTmuxServer(f.socket);
  fixtures = [];
  watchers = [];
});

async function setup(pollMs = 500) {
  const f = await startFixture();
  fixtures.push(f);
  // a hostile folder name: the hook must still write to exactly this file
  const file = join(f.dir, "se'ss $(x) #{pane_id};", ".runtime", "pane_exits");
  await installExitHooks(f.tmux, f.session, file);
  const exits: string[] = [];
  const w = watchPaneExits(file, (p) => exits.push(p), { tmux: f.tmux, session: f.session, pollMs, expected: (p) => f.layout.isExpectedExit(p) });
  watchers.push(w);
  return { f, file, exits };
}

const sleeper = (f: TmuxFixture, seconds: string) => f.layout.createPane({ command: ["sh", "-c", `sleep ${seconds}`], env: {}, cwd: f.dir, label: "sleeper" });

describe("pane exits", () => {
  test("a pane exit is reported once and the dead pane stays on screen", async () => {
    const { f, exits } = await setup();
    const pane = (await sleeper(f, "0.2; exit 4")).pane;
    await waitFor("exit reported", () => exits.includes(pane));
    expect(exits).toEqual([pane]);
    expect(await f.tmux.run(["display-message", "-p", "-t", pane, "#{pane_dead}"])).toBe("1");
  });

  test("an agent that exits mid-task is reported once (hook, or the poll when tmux misses it)", async () => {
    const { f, exits } = await setup();
    const record = join(f.dir, "rec.jsonl");
    // the agent crashes once the test says so: after its prompt was accepted, however slow the machine
    const crash = join(f.dir, "crash-now");
    const { pane } = await f.layout.createPane({ command: receiverCommand(record, ["--exit-when", crash]), env: {}, cwd: f.dir, label: "[sim] crashy" });
    await f.layout.show([pane]);
    const gate = ReadyGate.parse({ pattern: "^›\\s*$", settle_ms: 100, timeout_ms: 10000 });
    const r = await new PaneWriter(f.tmux).deliver(pane, "Read and follow the instructions in /x.md", {
      submit: SubmitStrategy.parse({ delay_ms: 20 }),
      ready: gate,
      trust: [],
      first: true,
    });
    expect(r.ok).toBe(true);
    expect(exits).toEqual([]);
    writeFileSync(crash, "");
    await waitFor("exit reported", () => exits.includes(pane));
    expect(exits).toEqual([pane]);
    // remain-on-exit keeps the dead pane on screen for the user
    expect(await f.tmux.run(["display-message", "-p", "-t", pane, "#{pane_dead}"])).toBe("1");
  });

  test("panes killed through Layout.kill are never reported; others alongside are", async () => {
    const { f, exits } = await setup();
    const killed = (await sleeper(f, "600")).pane;
    const dies = (await sleeper(f, "0.3")).pane;
    await f.layout.show([killed, dies]);
    await f.layout.kill(killed);
    await waitFor("the other pane's exit", () => exits.includes(dies));
    expect(exits).toEqual([dies]);
  });

  test("the fallback poll reports a pane that vanished without a hook", async () => {
    const f = await startFixture();
    fixtures.push(f);
    const file = join(f.dir, ".runtime", "pane_exits");
    const exits: string[] = [];
    // no installExitHooks: only the poll can see it
    const w = watchPaneExits(file, (p) => exits.push(p), { tmux: f.tmux, session: f.session, pollMs: 60000 });
    watchers.push(w);
    const pane = (await sleeper(f, "600")).pane;
    await w.poll(); // the poll now knows the pane alive
    await f.tmux.run(["kill-pane", "-t", pane]);
    await w.poll();
    expect(exits).toEqual([pane]);
    await w.poll();
    expect(exits).toEqual([pane]);
  });

  test("an agent pane killed before any poll saw it alive is still reported (the runtime says which panes it runs)", async () => {
    const f = await startFixture();
    fixtures.push(f);
    const file = join(f.dir, ".runtime", "pane_exits");
    const exits: string[] = [];
    const running = new Set<string>();
    const w = watchPaneExits(file, (p) => exits.push(p), { tmux: f.tmux, session: f.session, pollMs: 60000, tracked: () => running });
    watchers.push(w);
    await w.poll(); // before the pane exists
    // launched, prompted and killed (kill-pane: no hook, no exit line) between two polls
    const pane = (await sleeper(f, "600")).pane;
    running.add(pane);
    await f.tmux.run(["kill-pane", "-t", pane]);
    await w.poll();
    expect(exits).toEqual([pane]);
    // a pane launched while a poll's list is under way is not taken for gone
    const racing = w.poll();
    const fresh = (await sleeper(f, "600")).pane;
    running.add(fresh);
    await racing;
    await w.poll();
    expect(exits).toEqual([pane]);
  });
});

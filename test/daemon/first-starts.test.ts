/**
 * First starts of one CLI go one after another (#27): two first starts of opencode at once left
 * one pane blank for 4 minutes. The second start of a CLI waits until its first shows the ready
 * prompt; once one was ready, starts go ahead at once. Real panes on a private tmux server; the
 * "CLI" is the tty receiver, which draws nothing for its --slow-start.
 */
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { FirstStarts } from "../../src/daemon/first-starts.ts";
import { ReadyGate } from "../../src/schema/config.ts";
import { killTmuxServer } from "../helpers/tmp.ts";
import { receiverCommand, startFixture, type TmuxFixture } from "../tmux/setup.ts";

let fixture: TmuxFixture | null = null;
afterEach(() => {
  if (fixture) killTmuxServer(fixture.socket);
  fixture = null;
});

const GATE = ReadyGate.parse({ pattern: "^\\[sim\\] ready", busy_pattern: "\\[sim\\] working", settle_ms: 0, timeout_ms: 30_000 });

const screen = (f: TmuxFixture, pane: string) => f.tmux.run(["capture-pane", "-p", "-t", pane]);

/** Whether `p` has settled before a macrotask runs: a start that does not wait resolves within microtasks. */
const atOnce = (p: Promise<unknown>) => Promise.race([p.then(() => true), Bun.sleep(0).then(() => false)]);

test("the second start of a CLI waits for the first to show its ready prompt; another CLI and later starts do not wait", async () => {
  const f = (fixture = await startFixture());
  const starts = new FirstStarts(f.tmux, () => {});
  const first = await starts.before("mycli", "architect");
  const { pane } = await f.layout.createPane({ command: receiverCommand(join(f.dir, "a.jsonl"), ["--slow-start", "3000"]), env: {}, cwd: f.dir, label: "a" });
  first(pane, GATE);
  // another CLI is not held back by it
  expect(await atOnce(starts.before("othercli", "planner"))).toBe(true);
  expect(await screen(f, pane)).not.toContain("[sim] ready");
  // the second start of the same CLI goes once the first's ready prompt showed
  await starts.before("mycli", "planner");
  expect(await screen(f, pane)).toContain("[sim] ready");
  // once one was ready, starts of that CLI go at once
  expect(await atOnce(starts.before("mycli", "coder-1"))).toBe(true);
}, 30_000);

test("a first start whose pane exits does not hold the next one", async () => {
  const f = (fixture = await startFixture());
  const starts = new FirstStarts(f.tmux, () => {});
  const first = await starts.before("mycli", "architect");
  const { pane } = await f.layout.createPane({ command: ["sh", "-c", "sleep 0.3; exit 3"], env: {}, cwd: f.dir, label: "a" });
  first(pane, GATE);
  await starts.before("mycli", "planner");
  expect(await f.tmux.run(["display-message", "-p", "-t", pane, "#{pane_dead}"]).catch(() => "1")).toContain("1");
}, 30_000);

test("a first start that shows its trust dialog has loaded: the next start goes (the dialog is answered by its prompt's delivery, which may come later)", async () => {
  const f = (fixture = await startFixture());
  const starts = new FirstStarts(f.tmux, () => {});
  const first = await starts.before("mycli", "coder:1");
  const { pane } = await f.layout.createPane({ command: receiverCommand(join(f.dir, "a.jsonl"), ["--trust"]), env: {}, cwd: f.dir, label: "a" });
  first(pane, GATE, [{ detect: "Trust this folder\\? \\(sim\\)" }]);
  await starts.before("mycli", "coder:2");
  // the dialog is still there: nobody answered it, the second start did not wait for that
  expect(await screen(f, pane)).toContain("Trust this folder? (sim)");
}, 30_000);

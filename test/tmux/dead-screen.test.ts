import { afterEach, expect, test } from "bun:test";
import { lastScreen } from "../../src/effects/tmux/agent-ops.ts";
import { killTmuxServer } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { startFixture, type TmuxFixture } from "./setup.ts";

let fixtures: TmuxFixture[] = [];
afterEach(() => {
  for (const f of fixtures) killTmuxServer(f.socket);
  fixtures = [];
});

/**
 * The pane's process has exited (remain-on-exit keeps it). Its exit status is not waited for:
 * tmux 3.3a sometimes never reports it for a process that exits at once (a full suite's run
 * waited 15 s for it in vain); the product reads pane_dead too (effects/tmux/exits.ts).
 */
async function dead(f: TmuxFixture, pane: string): Promise<void> {
  await waitFor("the pane to die", async () => (await f.tmux.run(["display-message", "-p", "-t", pane, "#{pane_dead}"])).trim() === "1", { timeoutMs: 15_000 });
}

/** The dead pane's last screen once its last line is `last` (tmux reads the program's output after it exits). */
async function screenEndingWith(f: TmuxFixture, pane: string, last: string): Promise<string[]> {
  const lines = async () =>
    ((await lastScreen(f.tmux, pane)) ?? "")
      .split("\n")
      .map((l) => l.trimEnd())
      .filter(Boolean);
  return waitFor(`the last line "${last}"`, async () => ((await lines()).at(-1) === last ? await lines() : null), { timeoutMs: 15_000 });
}

// tmux writes "Pane is dead (status 3, <date>)" under a dead pane's screen after a linefeed that
// marks the last row as wrapped, so a joined capture glued it to the program's last line:
// a run failed with "its last line: [sim] readyPane is dead (status 3, Fri Nov 27 …)".
test("a dead pane's last screen is the program's own: tmux's 'Pane is dead' line is not in it, nor glued to the last line", async () => {
  const f = await startFixture();
  fixtures.push(f);
  const script = "i=0; while [ $i -lt 80 ]; do echo; i=$((i+1)); done; printf 'error: out of credits'; exit 3";
  const { pane } = await f.layout.createPane({ command: ["sh", "-c", script], env: {}, cwd: f.dir, label: "exits" });
  await dead(f, pane);
  const lines = await screenEndingWith(f, pane, "error: out of credits");
  expect(lines.some((l) => l.includes("Pane is dead"))).toBe(false);
}, 20_000);

test("the program's last line is kept when it ended with a newline", async () => {
  const f = await startFixture();
  fixtures.push(f);
  const script = "i=0; while [ $i -lt 80 ]; do echo; i=$((i+1)); done; echo 'panic: index out of range'; exit 2";
  const { pane } = await f.layout.createPane({ command: ["sh", "-c", script], env: {}, cwd: f.dir, label: "exits" });
  await dead(f, pane);
  expect(await screenEndingWith(f, pane, "panic: index out of range")).toEqual(["panic: index out of range"]);
}, 20_000);

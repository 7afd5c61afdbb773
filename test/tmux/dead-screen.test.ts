import { afterEach, expect, test } from "bun:test";
import { deadPaneStatus, lastScreen } from "../../src/effects/tmux/agent-ops.ts";
import { killTmuxServer } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { startFixture, type TmuxFixture } from "./setup.ts";

let fixtures: TmuxFixture[] = [];
afterEach(() => {
  for (const f of fixtures) killTmuxServer(f.socket);
  fixtures = [];
});

// tmux writes "Pane is dead (status 3, <date>)" under a dead pane's screen after a linefeed that
// marks the last row as wrapped, so a joined capture glued it to the program's last line:
// a run failed with "its last line: [sim] readyPane is dead (status 3, Fri Nov 27 …)".
test("a dead pane's last screen is the program's own: tmux's 'Pane is dead' line is not in it, nor glued to the last line", async () => {
  const f = await startFixture();
  fixtures.push(f);
  const script = "i=0; while [ $i -lt 80 ]; do echo; i=$((i+1)); done; printf 'error: out of credits'; exit 3";
  const { pane } = await f.layout.createPane({ command: ["sh", "-c", script], env: {}, cwd: f.dir, label: "exits" });
  await waitFor("the pane to die", async () => (await deadPaneStatus(f.tmux, pane)) === "3", { timeoutMs: 15_000 });
  const lines = (await lastScreen(f.tmux, pane))!.split("\n").map((l) => l.trimEnd()).filter(Boolean);
  expect(lines.at(-1)).toBe("error: out of credits");
  expect(lines.some((l) => l.includes("Pane is dead"))).toBe(false);
}, 20_000);

test("the program's last line is kept when it ended with a newline", async () => {
  const f = await startFixture();
  fixtures.push(f);
  const script = "i=0; while [ $i -lt 80 ]; do echo; i=$((i+1)); done; echo 'panic: index out of range'; exit 2";
  const { pane } = await f.layout.createPane({ command: ["sh", "-c", script], env: {}, cwd: f.dir, label: "exits" });
  await waitFor("the pane to die", async () => (await deadPaneStatus(f.tmux, pane)) === "2", { timeoutMs: 15_000 });
  const lines = (await lastScreen(f.tmux, pane))!.split("\n").map((l) => l.trimEnd()).filter(Boolean);
  expect(lines).toEqual(["panic: index out of range"]);
}, 20_000);

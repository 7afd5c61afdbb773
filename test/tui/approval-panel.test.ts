import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeTmpDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #11.4: quitting the approval panel (q → y) left the run in completing with an empty pane and
 * no way back. Now the monitor's `a`, `agentmux attach` and the home screen bring it back, and
 * approving from an attach (#11.5) ends with the commit on screen, not a bare `[exited]`.
 */
const scope = binaryScope();
const { dirs } = scope;
const socket = scope.socket;

function session(repo: string): { id: string; dir: string; state: any } | null {
  const root = join(repo, ".agentmux", ".sessions");
  const id = existsSync(root) ? readdirSync(root).find((n) => !n.startsWith(".")) : undefined;
  if (!id) return null;
  try {
    return { id, dir: join(root, id), state: JSON.parse(readFileSync(join(root, id, "state.json"), "utf8")) };
  } catch {
    return null;
  }
}

/** The text of every pane of the agentmux session (the panel is one of them when it shows). */
async function panes(inner: Tmux): Promise<string> {
  const ids = (await inner.run(["list-panes", "-a", "-F", "#{pane_id}"])).split("\n").filter(Boolean);
  const texts = await Promise.all(ids.map((id) => inner.run(["capture-pane", "-p", "-t", id]).catch(() => "")));
  return texts.join("\n");
}

const PANEL = "Commit message (e: edit)";

test("quit the panel, monitor a brings it back; quit again, detach; home a → attach brings it back; approve → the commit on screen", async () => {
  const root = makeTmpDir("amx-panel-");
  dirs.push(root);
  const repo = join(root, "repo");
  const innerSocket = socket();
  const inner = new Tmux(innerSocket);
  const env = { AGENTMUX_TMUX_SOCKET: innerSocket, CI: "", NO_COLOR: "1" };
  const run = new Screen(socket());
  await run.start([scope.bin, "demo", "--approve", "--dir", repo, "--think-ms", "0"], root, { width: 160, height: 45 }, env);
  await run.until("the approval panel", (x) => x.includes(PANEL), 60_000);
  const s = session(repo)!;
  expect(s.state).toMatchObject({ phase: "completing", awaiting_decision: true });

  await run.keys("q");
  await run.until("the quit question", (x) => x.includes("Quit without approving"));
  await run.keys("y");
  await waitFor("the panel to close", async () => !(await panes(inner)).includes(PANEL));
  const monitor = await run.until("the monitor says it waits", (x) => x.includes("waiting for your approval"));
  expect(monitor).toContain("a: open the approval panel");
  expect(session(repo)!.state).toMatchObject({ phase: "completing", awaiting_decision: true });

  const control = JSON.parse(readFileSync(join(s.dir, "runtime_state.json"), "utf8")).control_pane;
  await inner.run(["send-keys", "-t", control, "a"]);
  await run.until("the panel again (monitor a)", (x) => x.includes(PANEL), 15_000);
  await run.keys("q");
  await run.until("the quit question", (x) => x.includes("Quit without approving"));
  await run.keys("y");
  await waitFor("the panel to close", async () => !(await panes(inner)).includes(PANEL));
  // the demo runs inside the test's own tmux (Ctrl-b): agentmux's prefix is Ctrl-a (#11.9)
  await run.keys("C-a", "d");
  const detached = await run.until("the demo's launcher to return", (x) => x.includes("EXIT="));
  expect(detached).toContain("Detached. The run goes on in the background.");

  const home = new Screen(socket());
  await home.start([scope.bin], repo, { width: 160, height: 45 }, env);
  await home.until("the home screen", (x) => x.includes(s.id));
  await home.keys("a");
  await home.until("the panel again (home a → attach)", (x) => x.includes(PANEL), 15_000);
  await home.keys("a");
  const bye = await home.until("the goodbye after approving", (x) => x.includes("EXIT="), 30_000);
  expect(bye).not.toContain("[exited]\nEXIT");
  expect(bye).toContain("Implementation complete");
  // the user's checkout is given back (#11.7): the commit is on the run's branch, named on screen
  const branch = /Branch\s+(\S+)/.exec(bye)![1]!;
  const hash = Bun.spawnSync(["git", "rev-parse", "--short", branch], { cwd: repo, stdout: "pipe" }).stdout.toString().trim();
  expect(bye).toMatch(new RegExp(`Commit\\s+${hash}`));
  expect(bye).toMatch(new RegExp(`Branch\\s+${branch.replace("/", "\\/")}`));
  expect(bye).toContain("EXIT=0");
}, 180_000);

import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { waitFor } from "../helpers/wait.ts";
import { git } from "../e2e/harness.ts";
import { simProject } from "../e2e/sim-project.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { readLog } from "../../src/session/log.ts";

/**
 * #14.2: a watched run that reaches limits.max_tokens says so in the monitor and asks; no agent
 * starts until the user lets it go on (`g`), and then the run goes on to its commit. The budget
 * is low enough to be reached at the first figures read (every 2 s), while an agent works or the
 * next one starts.
 *
 * Not asserted: that the live agents' processes stay stopped. They do not: tmux continues a
 * stopped pane process at once (it answers a child's stop with SIGCONT, unless the stop came
 * from SIGTTIN/SIGTTOU, which the kernel ignores for a pane's orphaned process group). The pause
 * needs a process between tmux and the CLI, so that only the CLI is stopped; #14 stays open for it.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;
const socket = scope.socket;

test("at the budget the monitor asks and no agent starts until g; g lets the run go on to its commit", async () => {
  const repo = simProject({ dirs }, 100);
  const file = join(repo, ".agentmux/config.yaml");
  writeFileSync(file, stringify({ ...parse(readFileSync(file, "utf8")), limits: { max_tokens: 1000 } }));
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qam", "budget");
  const run = new Screen(socket());
  await run.start([scope.bin, "run", "Add alpha"], repo, { width: 160, height: 45 }, { AGENTMUX_TMUX_SOCKET: socket(), CI: "", NO_COLOR: "1" });
  const screen = await run.until("the monitor says the run is paused", (x) => x.includes("budget reached: run paused"), 90_000);
  expect(screen).toContain("g: go on · c: cancel");
  const root = join(repo, ".agentmux/.sessions");
  const dir = join(root, readdirSync(root).find((n) => !n.startsWith("."))!);
  // no agent starts while the run is paused: a launch asked for meanwhile waits for the go-on
  const events = () => readLog(dir).map((r) => r.event);
  await waitFor("the pause logged", () => events().includes("agents_paused"), { timeoutMs: 10_000 });
  const before = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(before.budget_reached.paused).toBe(true);
  expect(before.budget_reached.text).toMatch(/^the run has used \S+ tokens \(\d+\) of its 1k budget \(limits\.max_tokens\)$/);
  expect(before.phase).not.toBe("failed");

  // the control pane is the monitor: g goes on
  const control = JSON.parse(readFileSync(join(dir, "runtime_state.json"), "utf8")).control_pane;
  const inner = new Screen(sockets.at(-1)!);
  await inner.tmux.run(["send-keys", "-t", control, "g"]);
  await waitFor("the run going on", () => events().includes("agents_continued"), { timeoutMs: 15_000 });
  const all = events();
  const paused = all.slice(all.indexOf("agents_paused"), all.indexOf("agents_continued"));
  expect(paused).not.toContain("agent_launched");
  const bye = await run.until("the run's end", (x) => x.includes("EXIT="), 120_000);
  expect(bye).toContain("EXIT=0");
  expect(bye).toMatch(/Usage\s+\S+ tokens/);
  expect(existsSync(join(dir, ".runtime/budget_go_on"))).toBe(false);
}, 240_000);

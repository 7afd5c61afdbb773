import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { holdsFor, waitFor } from "../helpers/wait.ts";
import { procState } from "../helpers/proc.ts";
import { descendants } from "../../src/effects/process/tree.ts";
import { git } from "../e2e/harness.ts";
import { simProject } from "../e2e/sim-project.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { readLog } from "../../src/session/log.ts";

/**
 * #14.2: a watched run that reaches limits.max_tokens says so in the monitor and asks; no agent
 * starts until the user lets it go on (`g`), and then the run goes on to its commit. The budget
 * is low enough to be reached by the first agent's turn, while that agent works.
 *
 * The live agents' CLIs stay stopped while the run is paused (tmux continues a stopped pane
 * process at once, so the pause stops what runs below the pane's shell: test/process/tree.test.ts),
 * and no tool call comes from them until the go-on.
 */
const scope = binaryScope();

const { sockets, dirs } = scope;
const socket = scope.socket;

test("at the budget the monitor asks and no agent starts until g; g lets the run go on to its commit", async () => {
  // a simulated turn records its usage when it starts and lasts 3 s: the budget, read every 2 s, trips mid-turn
  const repo = simProject({ dirs }, 3000);
  const file = join(repo, ".agentmux/config.yaml");
  writeFileSync(file, stringify({ ...parse(readFileSync(file, "utf8")), limits: { max_tokens: 1000 } }));
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qam", "budget");
  const run = new Screen(socket());
  await run.start([scope.bin, "run", "Add alpha"], repo, { width: 160, height: 45 }, { AGENTMUX_TMUX_SOCKET: socket(), CI: "", NO_COLOR: "1" });
  const screen = await run.until("the monitor says the run is paused", (x) => x.includes("budget reached: agents paused"), 90_000);
  expect(screen).toContain("g: go on · c: cancel");
  // the status-line message names agentmux once (the attention call adds the name)
  expect(screen).not.toContain("agentmux: agentmux:");
  const root = join(repo, ".agentmux/.sessions");
  const dir = join(
    root,
    readdirSync(root).find((n) => !n.startsWith("."))!,
  );
  // no agent starts while the run is paused: a launch asked for meanwhile waits for the go-on
  const events = () => readLog(dir).map((r) => r.event);
  await waitFor("the pause logged", () => events().includes("agents_paused"), { timeoutMs: 10_000 });
  const before = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(before.budget_reached.paused).toBe(true);
  expect(before.budget_reached.text).toMatch(/^the run has used \S+ tokens \(\d+\) of its 1k budget \(limits\.max_tokens\)$/);
  expect(before.phase).not.toBe("failed");
  const pids: number[] = Object.values(JSON.parse(readFileSync(join(dir, "runtime_state.json"), "utf8")).pids as Record<string, number>);
  const below = pids.flatMap((p) => descendants(p));
  expect(below.length).toBeGreaterThan(0);
  const calls = () => (existsSync(join(dir, "tool_events.jsonl")) ? readFileSync(join(dir, "tool_events.jsonl"), "utf8") : "");
  const callsAtPause = calls();
  const stopped = () => below.every((p) => procState(p) === "T" || procState(p) === undefined) && pids.every((p) => procState(p) !== "T");
  await waitFor("the agents' CLIs stopped", stopped, { timeoutMs: 5000 });
  // longer than the rest of a simulated turn: a running agent would have submitted meanwhile
  await holdsFor("the agents' CLIs stopped while the run is paused", () => stopped() && calls() === callsAtPause, { forMs: 4000 });

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

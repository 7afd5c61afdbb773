import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { waitFor } from "../helpers/wait.ts";
import { git } from "../e2e/harness.ts";
import { simProject } from "../e2e/sim-project.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #14.2: a watched run that reaches limits.max_tokens pauses its agents (stopped, not killed),
 * the monitor says so and asks; `g` lets the run go on to its commit. The budget is low enough to
 * be reached at the first figures read (every 2 s), while an agent works or the next one starts:
 * at 20k, a loaded machine read them after the last agent had finished, with nothing left to pause.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;
const socket = scope.socket;
/** The process state letter of a pid (`T`: stopped), or null when it is gone. */
const procState = (pid: number) => {
  try {
    return /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1] ?? null;
  } catch {
    return null;
  }
};

test("at the budget the agents stop, the monitor asks; g lets the run go on to its commit", async () => {
  const repo = simProject({ dirs }, 100);
  const file = join(repo, ".agentmux/config.yaml");
  writeFileSync(file, stringify({ ...parse(readFileSync(file, "utf8")), limits: { max_tokens: 1000 } }));
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qam", "budget");
  const run = new Screen(socket());
  await run.start([scope.bin, "run", "Add alpha"], repo, { width: 160, height: 45 }, { AGENTMUX_TMUX_SOCKET: socket(), CI: "", NO_COLOR: "1" });
  const screen = await run.until("the monitor says the agents are paused", (x) => x.includes("budget reached: agents paused"), 90_000);
  expect(screen).toContain("g: go on · c: cancel");
  const root = join(repo, ".agentmux/.sessions");
  const dir = join(root, readdirSync(root).find((n) => !n.startsWith("."))!);
  // the live agents are stopped; an agent the run starts meanwhile waits for the go-on. The pids
  // are read again each time: the pause can land while an agent's pane is still being made.
  const events = () => readFileSync(join(dir, "orchestrator.log"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).event as string);
  const livePids = (): number[] => Object.values(JSON.parse(readFileSync(join(dir, "runtime_state.json"), "utf8")).pids ?? {});
  try {
    await waitFor("the agents stopped or a launch held", () => {
      const pids = livePids();
      const stopped = pids.every((p) => procState(p) === "T" || procState(p) === null);
      return events().includes("agents_paused") && stopped && (pids.some((p) => procState(p) === "T") || events().includes("launch_held"));
    }, { timeoutMs: 10_000 });
  } catch (e) {
    console.error({ pids: livePids().map((p) => [p, procState(p)]), log: readFileSync(join(dir, "orchestrator.log"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).map((r) => `${r.ts} ${r.event} ${r.agent ?? ""} ${r.msg}`.slice(0, 220)).slice(-40) });
    throw e;
  }
  const before = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(before.budget_reached.paused).toBe(true);
  expect(before.budget_reached.text).toMatch(/^the run has used \S+ tokens \(\d+\) of its 1k budget \(limits\.max_tokens\)$/);
  expect(before.phase).not.toBe("failed");

  // the control pane is the monitor: g goes on
  const control = JSON.parse(readFileSync(join(dir, "runtime_state.json"), "utf8")).control_pane;
  const inner = new Screen(sockets.at(-1)!);
  await inner.tmux.run(["send-keys", "-t", control, "g"]);
  await waitFor("the agents running again", () => events().includes("agents_continued") && livePids().every((p) => procState(p) !== "T"), { timeoutMs: 15_000 });
  const bye = await run.until("the run's end", (x) => x.includes("EXIT="), 120_000);
  expect(bye).toContain("EXIT=0");
  expect(bye).toMatch(/Usage\s+\S+ tokens/);
  expect(existsSync(join(dir, ".runtime/budget_go_on"))).toBe(false);
}, 240_000);

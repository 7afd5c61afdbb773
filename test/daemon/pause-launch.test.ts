import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { privateMcpDir } from "../../src/session/private-dir.ts";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { AgentRuntime } from "../../src/daemon/agents.ts";
import type { Layout } from "../../src/effects/tmux/layout.ts";
import type { PaneWriter } from "../../src/effects/tmux/deliver.ts";
import type { Tmux } from "../../src/effects/tmux/runner.ts";
import { AgentTokens } from "../../src/mcp/identity.ts";
import { descendants } from "../../src/effects/process/tree.ts";
import { paneCommand } from "../../src/effects/tmux/session.ts";
import { makeTmpDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { procState } from "../helpers/proc.ts";

/** Alive and not stopped. */
const running = (pid: number) => ![undefined, "T", "Z"].includes(procState(pid));

/**
 * #14.2: the run pauses at its budget while an agent's launch is still under way (its pane being
 * made). The agent that comes up during the pause must be stopped like the others, not left
 * spending tokens until the user lets the run go on.
 */
const children: ChildProcess[] = [];
const sessions: string[] = [];
afterEach(() => {
  for (const c of children.splice(0))
    if (c.pid)
      try {
        process.kill(-c.pid, "SIGKILL");
      } catch {}
  // the launches' MCP configs: in the run's private folder under the home, which an orchestrator removes at its end
  for (const d of sessions.splice(0)) rmSync(privateMcpDir(d), { recursive: true, force: true });
});

/** The program a fake pane runs below its shell, as in a tmux pane (paneCommand with an exits file). */
const program = (pane: ChildProcess) => descendants(pane.pid!)[0];

/** A layout whose pane creation waits until the test lets it finish; each pane's shell leads its own process group. */
function gatedLayout() {
  const exits = makeTmpDir("amx-pause-exits-");
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let asked!: () => void;
  const creating = new Promise<void>((r) => (asked = r));
  const layout = {
    async createPane() {
      asked();
      await gate;
      const child = spawn("sh", ["-c", paneCommand(["sleep", "60"], { exitFile: join(exits, "exits") })], { detached: true, stdio: "ignore" });
      children.push(child);
      await waitFor("the pane's program started", () => program(child));
      return { pane: `%${children.length}`, pid: child.pid! };
    },
    visiblePanes: () => [],
    show: async () => {},
    setLabel: async () => {},
    kill: async () => {},
    isAlive: async () => true,
  } as unknown as Layout;
  return { layout, creating, release };
}

function runtime(layout: Layout) {
  const dir = makeTmpDir("amx-pause-launch-");
  sessions.push(dir);
  const log: { msg: string; event?: string }[] = [];
  const config = loadConfig({ projectDir: join(dir, "no-project"), env: { HOME: join(dir, "no-home") } }).config;
  config.defaults.provider = "sim";
  const agents = new AgentRuntime({
    sessionDir: dir,
    projectDir: dir,
    workDir: dir,
    sessionName: "amx-test",
    config,
    tmux: { socket: "unused" } as unknown as Tmux,
    layout,
    writer: {} as PaneWriter,
    controlPane: "%0",
    selfCommand: ["agentmux"],
    log: (msg, f) => void log.push({ msg, event: f?.event }),
    mcp: { tokens: new AgentTokens(), url: () => "http://127.0.0.1:1/mcp" },
  });
  return { agents, log };
}

test("an agent whose launch finishes while the run is paused at its budget is stopped too", async () => {
  const { layout, creating, release } = gatedLayout();
  const { agents, log } = runtime(layout);
  const launched = agents.launch("architect", "architect", "architect");
  await creating;
  agents.pause(true);
  release();
  await launched;
  const pid = program(children[0]!)!;
  await waitFor("the late agent stopped", () => procState(pid) === "T", { timeoutMs: 5000 });
  expect(running(children[0]!.pid!)).toBe(true);
  expect(log.some((l) => l.event === "agents_paused" && l.msg.startsWith("architect: started while the run is paused"))).toBe(true);

  agents.pause(false);
  await waitFor("the agent running again", () => running(pid), { timeoutMs: 5000 });
});

test("a launch asked for during the pause is held, and made when the run goes on", async () => {
  const { layout, release } = gatedLayout();
  release();
  const { agents, log } = runtime(layout);
  agents.pause(true);
  await agents.launch("architect", "architect", "architect");
  expect(children).toHaveLength(0);
  expect(log.some((l) => l.event === "launch_held")).toBe(true);
  agents.pause(false);
  await waitFor("the held launch made", () => children.length === 1 && agents.paneOf("architect") !== undefined, { timeoutMs: 5000 });
  expect(running(program(children[0]!)!)).toBe(true);
});

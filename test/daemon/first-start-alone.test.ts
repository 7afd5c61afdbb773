/**
 * Which CLIs' second starts wait for their first (#27, #27.7): only one whose provider says
 * `first_start_alone` (opencode, whose first starts fight over its caches). Any other CLI's
 * pre-starts start beside its first agent at once: the stagger had held claude's planner and coder
 * 2.4 s and qwen's 18 s behind the architect's start, and the planner was not ready at its handoff.
 * spawnAgent with a layout that records its panes and a first start whose pane never gets ready.
 */
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { spawnAgent } from "../../src/daemon/agent-launch.ts";
import { FirstStarts, POLL_MS } from "../../src/daemon/first-starts.ts";
import { CliVersions } from "../../src/daemon/cli-versions.ts";
import type { AgentRuntimeOptions } from "../../src/daemon/agents.ts";
import type { Layout } from "../../src/effects/tmux/layout.ts";
import { AgentTokens } from "../../src/mcp/identity.ts";
import { privateMcpDir } from "../../src/session/private-dir.ts";
import { Provider } from "../../src/schema/config.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { makeTmpDir } from "../helpers/tmp.ts";

const sessions: string[] = [];
afterEach(() => {
  for (const d of sessions.splice(0)) rmSync(privateMcpDir(d), { recursive: true, force: true });
});

const READY = "[cli] ready";

function lab(alone: boolean) {
  const dir = makeTmpDir("amx-first-alone-");
  sessions.push(dir);
  const config = loadConfig({ projectDir: join(dir, "no-project"), env: { HOME: join(dir, "no-home") } }).config;
  config.providers.mycli = Provider.parse({ command: "/bin/true", first_start_alone: alone, ready: { pattern: "^\\[cli\\] ready", settle_ms: 0 } });
  config.defaults.provider = "mycli";
  const panes: string[] = [];
  const layout = { createPane: async () => (panes.push(`%${panes.length + 1}`), { pane: panes.at(-1)!, pid: 1 }) } as unknown as Layout;
  const o = {
    sessionDir: dir,
    projectDir: dir,
    workDir: dir,
    config,
    layout,
    selfCommand: ["agentmux"],
    log: () => {},
    mcp: { tokens: new AgentTokens(), url: () => "http://127.0.0.1:1/mcp" },
  } as unknown as AgentRuntimeOptions;
  const clock = new FakeClock(0);
  const screens = new Map<string, string>();
  const first = new FirstStarts(
    async (pane) => ({ dead: false, exitStatus: "", inMode: false, title: "", screen: screens.get(pane) ?? "" }),
    () => {},
    clock,
  );
  const starts = {
    first,
    versions: new CliVersions(
      async () => ({ code: 0, stdout: "", stderr: "" }) as never,
      () => {},
    ),
  };
  const spawn = (agent: string) => spawnAgent(o, starts, agent, agent === "architect" ? "architect" : "planner", agent, {});
  return { spawn, panes, screens, clock };
}

/** whether `p` settles within a few turns of the event loop (no clock moved) */
const soon = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 20 && !done; i++) await Bun.sleep(1);
  return done;
};

test("a CLI without first_start_alone: its planner starts beside its architect at once, though the architect's pane is still blank", async () => {
  const l = lab(false);
  await l.spawn("architect");
  expect(await soon(l.spawn("planner"))).toBe(true);
  expect(l.panes).toEqual(["%1", "%2"]);
});

test("a CLI with first_start_alone (opencode): its second start waits until the first shows its ready prompt", async () => {
  const l = lab(true);
  await l.spawn("architect");
  const planner = l.spawn("planner");
  expect(await soon(planner)).toBe(false);
  expect(l.panes).toEqual(["%1"]);
  l.screens.set("%1", READY);
  l.clock.advance(POLL_MS);
  await planner;
  expect(l.panes).toEqual(["%1", "%2"]);
});

test("of the built-in CLIs only opencode starts its first alone", () => {
  const dir = makeTmpDir("amx-first-alone-");
  const config = loadConfig({ projectDir: join(dir, "no-project"), env: { HOME: join(dir, "no-home") } }).config;
  expect(
    Object.entries(config.providers)
      .filter(([, p]) => p.first_start_alone)
      .map(([name]) => name),
  ).toEqual(["opencode"]);
});

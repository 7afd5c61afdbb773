/**
 * interpret(effect) → its outcome: the events each kind of effect produces, now or still to come,
 * mapped in milliseconds with fakes (a layout that makes no pane, a pane writer that returns the
 * verdict the test picks, a fake clock). A wrong mapping fails here, not in a two-minute e2e run.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { AgentRuntime } from "../../src/daemon/agents.ts";
import { interpret, type InterpretContext, type WorldEffect } from "../../src/daemon/interpret.ts";
import { allEvents, Later } from "../../src/daemon/outcome.ts";
import type { DeliveryResult, PaneWriter } from "../../src/effects/tmux/deliver.ts";
import type { Layout } from "../../src/effects/tmux/layout.ts";
import type { Tmux } from "../../src/effects/tmux/runner.ts";
import { AgentTokens } from "../../src/mcp/identity.ts";
import type { Config } from "../../src/schema/config.ts";
import type { Event } from "../../src/schema/events.ts";
import { privateMcpDir } from "../../src/session/private-dir.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { makeTmpDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

const sessions: string[] = [];
afterEach(() => {
  for (const d of sessions.splice(0)) rmSync(privateMcpDir(d), { recursive: true, force: true });
});

/** A pid no process has any more: a fake pane's (nothing is ever signalled). */
const deadPid = (() => {
  const p = Bun.spawnSync(["true"]);
  return p.pid;
})();

type Fakes = { verdict?: DeliveryResult; config?: (c: Config) => void; lastToolCall?: number };

function world(f: Fakes = {}) {
  const dir = makeTmpDir("amx-outcomes-");
  sessions.push(dir);
  const config = loadConfig({ projectDir: join(dir, "no-project"), env: { HOME: join(dir, "no-home") } }).config;
  config.defaults.provider = "sim";
  f.config?.(config);
  const clock = new FakeClock();
  const logs: string[] = [];
  let panes = 0;
  const layout = {
    createPane: async () => ({ pane: `%${++panes}`, pid: deadPid }),
    visiblePanes: () => [],
    show: async (p: string[]) => p,
    kill: async () => {},
    isAlive: async () => true,
    isExpectedExit: () => false,
  } as unknown as Layout;
  const delivered: string[] = [];
  const writer = {
    deliver: async (_pane: string, text: string, o: { onPasted?: () => void }) => {
      delivered.push(text);
      o.onPasted?.();
      return f.verdict ?? { ok: true, ms: 5, attempts: 1 };
    },
    prepare: () => {},
    forget: () => {},
  } as unknown as PaneWriter;
  const tmux = {
    socket: "amx-fake",
    // every tmux look fails as on a pane that is gone
    run: async () => {
      throw new Error("no tmux here");
    },
    exec: async () => ({ code: 1, stdout: "", stderr: "no tmux here" }),
    attachCommand: (_s: string, o: { pane?: string } = {}) => `tmux -L amx-fake attach${o.pane ? ` (${o.pane})` : ""}`,
  } as unknown as Tmux;
  const runtime = new AgentRuntime({
    sessionDir: dir,
    projectDir: dir,
    workDir: dir,
    sessionName: "amx-outcomes",
    config,
    tmux,
    layout,
    writer,
    controlPane: "%0",
    selfCommand: ["agentmux"],
    log: (msg) => void logs.push(msg),
    lastToolCall: () => f.lastToolCall ?? 0,
    mcp: { tokens: new AgentTokens(), url: () => "http://127.0.0.1:1/mcp" },
    clock,
  });
  let committed: Event | null = null;
  const ctx: InterpretContext = {
    sessionDir: dir,
    projectDir: dir,
    workDir: dir,
    config,
    runtime,
    log: (msg) => void logs.push(msg),
    commit: async () => (committed = { type: "committed", at: "2026-01-01T00:00:00.000Z", hash: "abc1234", branch: "feature/x", pr_url: null }),
  };
  return { dir, config, clock, logs, runtime, ctx, delivered, committed: () => committed };
}

const types = (events: Event[]) => events.map((e) => `${e.type}${"agent" in e ? `:${e.agent}` : ""}`);
const launch = (agent: string, extra: Partial<Extract<WorldEffect, { type: "launch_agent" }>> = {}): WorldEffect => ({
  type: "launch_agent",
  agent,
  role: "coder",
  label: `[${agent}]`,
  ...extra,
});

describe("each effect's outcome", () => {
  test("a file effect writes its file and produces no event", async () => {
    const w = world();
    const out = await interpret({ type: "write_file", path: "notes.md", content: "hello\n" }, w.ctx);
    expect(out).toEqual({ events: [] });
    expect(readFileSync(join(w.dir, "notes.md"), "utf8")).toBe("hello\n");
  });

  test("commit: the commit flow's event, produced before interpret returns", async () => {
    const w = world();
    const out = await interpret({ type: "commit", approval: { action: "approve", exclude_files: [], commit_message: "feat: x" } }, w.ctx);
    expect(out.events).toEqual([w.committed()!]);
    expect(out.later).toBeUndefined();
  });

  test("run_checks: the checks service's batch, as events to come; none without a checks service", async () => {
    const w = world();
    const batch = new Later();
    const out = await interpret(
      { type: "run_checks", run: 1, when: "after_implementation", round: 0, names: ["test"] },
      { ...w.ctx, checks: { start: () => batch } },
    );
    expect(out.events).toEqual([]);
    batch.put({ type: "check_started", at: "2026-01-01T00:00:00.000Z", run: 1, name: "test" });
    batch.end();
    expect(types(await allEvents(out))).toEqual(["check_started"]);
    expect(await interpret({ type: "run_checks", run: 2, when: "after_implementation", round: 0, names: ["test"] }, w.ctx)).toEqual({ events: [] });
  });

  test("launch_agent: the conversation agentmux picked for the CLI, now; a batch run (a researcher) is active at once", async () => {
    const w = world();
    const out = await interpret(launch("coder_1"), w.ctx);
    expect(types(out.events)).toEqual(["conversation_captured:coder_1"]);
    expect(out.later).toBeUndefined();
    const batch = await interpret(launch("researcher_x", { role: "code-researcher", batch_prompt: "03_research/x/prompt.md" }), w.ctx);
    expect(types(batch.events)).toEqual(["agent_active:researcher_x"]);
  });

  test("launch_agent while the run is paused: held, its events come when the run goes on", async () => {
    const w = world();
    w.runtime.pause(true);
    const out = await interpret(launch("coder_1"), w.ctx);
    expect(out.events).toEqual([]);
    expect(w.runtime.paneOf("coder_1")).toBeUndefined();
    w.runtime.pause(false);
    expect(types(await allEvents(out))).toEqual(["conversation_captured:coder_1"]);
    expect(w.runtime.paneOf("coder_1")).toBe("%1");
  });

  test("send_prompt accepted: agent_active to come", async () => {
    const w = world();
    await interpret(launch("coder_1"), w.ctx);
    const out = await interpret({ type: "send_prompt", agent: "coder_1", prompt: "04_implementation/plan_1/prompt.md" }, w.ctx);
    expect(out.events).toEqual([]);
    expect(types(await allEvents(out))).toEqual(["agent_active:coder_1"]);
    expect(w.delivered[0]).toContain(join(w.dir, "04_implementation/plan_1/prompt.md"));
  });

  test("send_prompt refused: agent_stuck with the CLI's own words and the command that shows its pane", async () => {
    const w = world({ verdict: { ok: false, reason: "the prompt was not accepted after 3 tries", screen: "│ Error: settings file skipped │\n> " } });
    await interpret(launch("coder_1"), w.ctx);
    const events = await allEvents(await interpret({ type: "notify_agent", agent: "coder_1", text: "a note" }, w.ctx));
    expect(types(events)).toEqual(["agent_stuck:coder_1"]);
    const reason = (events[0] as Extract<Event, { type: "agent_stuck" }>).reason;
    expect(reason).toContain("the prompt was not accepted after 3 tries; the CLI says: Error: settings file skipped");
    expect(reason).toContain("to fix by hand: tmux -L amx-fake attach (%1)");
  });

  test("a delivery cut short by the pane's exit produces nothing: the exit is reported on its own", async () => {
    const w = world({ verdict: { ok: false, reason: "pane %1 exited (status 1)", screen: "", exited: true } });
    await interpret(launch("coder_1"), w.ctx);
    expect(await allEvents(await interpret({ type: "notify_agent", agent: "coder_1", text: "a note" }, w.ctx))).toEqual([]);
  });

  test("a delivery to an agent with no pane produces nothing, at once", async () => {
    const w = world();
    expect(await interpret({ type: "send_prompt", agent: "coder_9", prompt: "p.md" }, w.ctx)).toEqual({ events: [] });
  });

  test("effects that only change the screen or the panes produce no event", async () => {
    const w = world();
    await interpret(launch("coder_1"), w.ctx);
    for (const e of [
      { type: "show_agents", agents: ["coder_1"] },
      { type: "pause_agents", pause: false },
      { type: "kill_agent", agent: "coder_1" },
    ] as WorldEffect[])
      expect(await interpret(e, w.ctx)).toEqual({ events: [] });
    expect(w.runtime.paneOf("coder_1")).toBeUndefined();
  });

  test("a CLI that picks its own conversation id: conversation_captured to come once its file names the prompt, looked for on the clock", async () => {
    const codexHome = makeTmpDir("amx-outcomes-codex-");
    const w = world({
      config: (c) => {
        const sim = c.providers.sim!;
        sim.conversation = { start: [], resume: [], create: [], capture: "codex" };
        sim.env = { ...sim.env, CODEX_HOME: codexHome };
      },
    });
    const launched = await interpret(launch("coder_1"), w.ctx);
    expect(launched.events).toEqual([]);
    const out = await interpret({ type: "send_prompt", agent: "coder_1", prompt: "p.md" }, w.ctx);
    const seen: Event[] = [];
    const following = (async () => {
      for await (const e of out.later!) seen.push(e);
    })();
    await waitFor("accepted, and the first look due", () => seen.length === 1 && w.clock.timers === 1);
    expect(types(seen)).toEqual(["agent_active:coder_1"]);
    w.clock.advance(300);
    await waitFor("the next look due", () => w.clock.timers === 1);
    expect(seen).toHaveLength(1);
    const id = "0199a3b4-0000-7000-8000-000000000001";
    const day = join(codexHome, "sessions", "2026", "01", "01");
    mkdirSync(day, { recursive: true });
    const file = join(day, `rollout-2026-01-01T00-00-00-${id}.jsonl`);
    writeFileSync(file, `{"type":"session_meta","payload":{"id":"${id}"}}\n{"type":"message","text":${JSON.stringify(w.delivered[0])}}\n`);
    utimesSync(file, new Date(), new Date());
    w.clock.advance(500);
    await following;
    expect(types(seen)).toEqual(["agent_active:coder_1", "conversation_captured:coder_1"]);
    expect(seen[1]).toMatchObject({ id });
  });
});

describe("outside signals the runtime maps to events", () => {
  test("a pane that exits under an agent: pane_exited, its screen gone; one agentmux closed on purpose: none", async () => {
    const w = world();
    await interpret(launch("coder_1"), w.ctx);
    expect(await w.runtime.paneExited("%1")).toMatchObject({ type: "pane_exited", agent: "coder_1", detail: "the pane is gone" });
    expect(await w.runtime.paneExited("%7")).toBeNull();
  });

  test("an MCP connection lost for good: the agent's pane_exited, naming why", async () => {
    const w = world();
    await interpret(launch("coder_1"), w.ctx);
    expect(w.runtime.mcpLost("coder_1", "its stdio bridge exited")).toMatchObject({ type: "pane_exited", agent: "coder_1", detail: "its stdio bridge exited" });
    expect(w.runtime.mcpLost("coder_2", "gone")).toBeNull();
  });
});

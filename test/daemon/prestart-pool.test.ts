import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { AgentTokens } from "../../src/mcp/identity.ts";
import { PrestartPool } from "../../src/daemon/prestart-pool.ts";
import { Prestarter, matchPrestarts, type HeldPrestart, type PrestartRuntime } from "../../src/daemon/prestart.ts";
import type { Started } from "../../src/daemon/agents.ts";
import { parallelCoderKey, type Role } from "../../src/schema/catalog.ts";
import { agentFileName } from "../../src/protocol/paths.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import { apply, clock, events, freshState, makePlan, settings } from "../orchestrator/fixtures.ts";
import { makeTmpDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { FakeClock } from "../helpers/fake-clock.ts";

function config(patch: (c: ReturnType<typeof loadConfig>["config"]) => void = () => {}) {
  const dir = makeTmpDir("amx-prestart-pool-");
  const c = loadConfig({ projectDir: join(dir, "no-project"), env: { HOME: join(dir, "no-home") } }).config;
  c.defaults.provider = "sim";
  patch(c);
  return c;
}

/** A pool over fake panes: spawning issues the key's token as AgentRuntime.spawn does; a pane gets ready when `ready` resolves. */
function pool(ready: () => Promise<boolean> = async () => true) {
  const clock = new FakeClock();
  const tokens = new AgentTokens();
  const cfg = config();
  const closed: string[] = [];
  const logs: { msg: string; event?: string; data?: unknown }[] = [];
  const secrets = new Map<string, string>();
  const labels = new Map<string, string>();
  const exited = new Set<string>();
  let n = 0;
  const p = new PrestartPool({
    spawn: async (key, role) => {
      secrets.set(key, tokens.issue(key, role, "/work"));
      const pane = `%${++n}`;
      return {
        pane: {
          pane,
          pid: 1000 + n,
          role,
          resolved: resolveRole(cfg, role),
          prompted: false,
          env: {},
          launchedAt: Date.now(),
          capture: false,
          turnId: crypto.randomUUID(),
        },
        argv: ["sim-agent"],
      } satisfies Started;
    },
    prepare: () => ready(),
    soloSize: async () => ({ width: 80, height: 24 }),
    claim: async (pane, label) => {
      labels.set(pane, label);
      return !closed.includes(pane) && !exited.has(pane);
    },
    close: async (pane) => void closed.push(pane),
    tokens,
    log: (msg, f) => void logs.push({ msg, event: f?.event, data: f?.data }),
    clock,
  });
  return { p, tokens, closed, logs, secrets, labels, exited, clock };
}

const LABEL = "[coder] plan A";

describe("pre-starts by role (#15.3)", () => {
  test("a coder pre-started by role is taken over by the coder the plan names: its token now identifies that agent, and the provisional key names nothing", async () => {
    const { p, tokens, secrets, labels } = pool();
    p.start({ agent: null, role: "coder" });
    const [held] = p.list();
    expect(held).toMatchObject({ agent: null, role: "coder" });
    // its MCP config and home files are named after its id: never the same file as a coder key's
    expect([1, 2, 3].map((i) => agentFileName(parallelCoderKey(i)))).not.toContain(agentFileName(held!.id));
    // its MCP client connected while the planner worked
    await waitFor("the pre-start's token", () => tokens.link(held!.id));
    tokens.link(held!.id)!.initializedAt = Date.now();
    tokens.link(held!.id)!.readyAt = Date.now();
    const taken = await p.take("coder:2", "coder", {}, LABEL);
    expect(taken?.byRole).toBe(held!.id);
    expect(labels.get("%1")).toBe(LABEL); // labelled as the agent in the same call that found it alive
    expect(taken?.started.pane.pane).toBe("%1");
    const token = secrets.get(held!.id)!;
    expect(tokens.lookup(token)?.identity.agent).toBe("coder:2");
    expect(tokens.ready("coder:2")).toBe(true); // the MCP-ready gate carries over: no wait at the handoff
    expect(tokens.link(held!.id)).toBeUndefined();
    expect(p.list()).toEqual([]);
  });

  test("a pre-start held under an agent's key is taken only by that agent; a launch of another role takes none", async () => {
    const { p } = pool();
    p.start({ agent: "reviewer_logic", role: "reviewer_logic" });
    expect(await p.take("coder", "coder", {}, LABEL)).toBeNull();
    expect(await p.take("reviewer_quality", "reviewer_quality", {}, LABEL)).toBeNull();
    expect((await p.take("reviewer_logic", "reviewer_logic", {}, LABEL))?.byRole).toBeNull();
  });

  test("a pre-start by role whose launch differs (a batch prompt) is closed, its token revoked", async () => {
    const { p, tokens, closed, secrets, logs } = pool();
    p.start({ agent: null, role: "coder" });
    const id = p.list()[0]!.id;
    expect(await p.take("coder", "coder", { batchPrompt: "x.md" }, LABEL)).toBeNull();
    expect(closed).toEqual(["%1"]);
    expect(tokens.lookup(secrets.get(id)!)).toBeUndefined();
    expect(logs.find((l) => l.event === "prestart_dropped")?.data).toEqual({ why: "this launch differs" });
  });

  test("a pre-start whose CLI exited is not taken: closed, its token revoked, the launch starts a new pane", async () => {
    const { p, tokens, closed, secrets, logs, exited } = pool();
    p.start({ agent: "planner", role: "planner" });
    await waitFor("the pre-start's token", () => tokens.link("planner"));
    exited.add("%1");
    expect(await p.take("planner", "planner", {}, LABEL)).toBeNull();
    expect(closed).toEqual(["%1"]);
    expect(tokens.lookup(secrets.get("planner")!)).toBeUndefined();
    expect(logs.find((l) => l.event === "prestart_dropped")?.data).toEqual({ why: "its CLI exited" });
  });

  test("a take-over says how long the pane had been ready for its prompt (on the pool's clock), or that it was not ready yet", async () => {
    const { p, logs, clock } = pool();
    p.start({ agent: "planner", role: "planner" });
    await waitFor("the pre-start prepared", () => logs.some((l) => l.msg.startsWith("pre-started planner ready for its prompt after 0 ms")));
    clock.advance(1500);
    expect((await p.take("planner", "planner", {}, LABEL))?.readyMs).toBe(1500);
    // a pane whose preparation has not finished (its CLI still starting) when its phase comes
    let started!: () => void;
    const slow = pool(() => new Promise<boolean>((r) => (started = () => r(true))));
    slow.p.start({ agent: "planner", role: "planner" });
    await waitFor("the pre-start spawned", () => slow.logs.some((l) => l.event === "agent_prestarted"));
    expect((await slow.p.take("planner", "planner", {}, LABEL))?.readyMs).toBeNull();
    started();
  });

  test("an unused pre-start is closed and its token revoked", async () => {
    const { p, tokens, closed, secrets } = pool();
    p.start({ agent: null, role: "coder" });
    const id = p.list()[0]!.id;
    await p.drop(id, "the run no longer needs it");
    expect(closed).toEqual(["%1"]);
    expect(tokens.lookup(secrets.get(id)!)).toBeUndefined();
    expect(p.list()).toEqual([]);
  });
});

describe("AgentTokens.rekey", () => {
  test("the token moves to the new key; the old key and the new key's earlier token are refused", () => {
    const tokens = new AgentTokens();
    const earlier = tokens.issue("coder", "coder", "/w");
    const pre = tokens.issue("coder~1", "coder", "/w");
    expect(tokens.rekey("coder~1", "coder", "coder")).toBe(true);
    expect(tokens.lookup(pre)?.identity).toMatchObject({ agent: "coder", role: "coder" });
    expect(tokens.lookup(earlier)).toBeUndefined();
    expect(tokens.link("coder~1")).toBeUndefined();
    // a later issue or revoke under the old key does not touch the agent's token
    tokens.revoke("coder~1");
    expect(tokens.lookup(pre)?.identity.agent).toBe("coder");
  });

  test("refused for another role (the tools would differ) or a key that holds no token", () => {
    const tokens = new AgentTokens();
    const pre = tokens.issue("coder~1", "coder", "/w");
    expect(tokens.rekey("coder~1", "reviewer_logic", "reviewer_logic")).toBe(false);
    expect(tokens.rekey("nobody", "coder", "coder")).toBe(false);
    expect(tokens.lookup(pre)?.identity.agent).toBe("coder~1");
  });
});

/** A runtime that records what the pre-starter asks of it. */
function fakeRuntime() {
  const held: HeldPrestart[] = [];
  const dropped: string[] = [];
  let n = 0;
  const runtime: PrestartRuntime = {
    prestart: (w) => void held.push({ id: w.agent ?? `${w.role}~${++n}`, agent: w.agent, role: w.role }),
    prestarted: () => [...held],
    dropPrestart: async (id) => {
      dropped.push(id);
      held.splice(
        held.findIndex((h) => h.id === id),
        1,
      );
    },
  };
  return { runtime, held, dropped };
}

describe("Prestarter", () => {
  const ev = events(clock());
  const s = settings({ skip_final_approval: true });
  const planning = apply(apply(freshState(), ev.start(), s).state, ev.arch(), s).state;

  test("while the planner works: the coder by role, the reviewer, a spare coder by role, nearest first, never more than prestart.max_panes", () => {
    const all = ["null/coder", "reviewer_logic/reviewer_logic", "null/coder"];
    for (const max of [0, 1, 2, 3, 4]) {
      const { runtime, held } = fakeRuntime();
      new Prestarter({ runtime, config: config((c) => (c.prestart.max_panes = max)), settings: s, log: () => {} }).update(planning);
      expect(held.map((h) => `${h.agent}/${h.role}`)).toEqual(all.slice(0, max));
    }
  });

  test("role pre-starts count against the limit with keyed ones; a held one by role stands in for a coder the next phase names", () => {
    const { runtime, held, dropped } = fakeRuntime();
    const pre = new Prestarter({ runtime, config: config((c) => (c.prestart.max_panes = 3)), settings: s, log: () => {} });
    pre.update(planning);
    pre.update(planning);
    expect(held.length).toBe(3);
    // the plan is in and needs a design: the designer works, the first group's coders are named
    const designing = apply(planning, ev.plan(makePlan([{ mode: "parallel", plans: [1, 2] }], true)), s).state;
    expect(designing.phase).toBe("designing");
    pre.update(designing);
    expect(dropped).toEqual([]);
    expect(held.map((h) => h.agent)).toEqual([null, "reviewer_logic", null]);
    // with room for two: the reviewer started while the planner worked is still needed, so it stays
    // (closing it would waste its start); the second coder the plan named waits for room
    const two = fakeRuntime();
    const pre2 = new Prestarter({ runtime: two.runtime, config: config((c) => (c.prestart.max_panes = 2)), settings: s, log: () => {} });
    pre2.update(planning);
    pre2.update(designing);
    expect(two.dropped).toEqual([]);
    expect(two.held.map((h) => h.agent)).toEqual([null, "reviewer_logic"]);
  });

  test("an unused pre-start is closed: the fixer pre-started during the review (prestart.fixer, on by default), the review passes", () => {
    const { runtime, held, dropped } = fakeRuntime();
    const pre = new Prestarter({ runtime, config: config(), settings: s, log: () => {} });
    let st = apply(planning, ev.plan(makePlan([{ mode: "serial", plans: [1] }])), s).state;
    st = apply(st, ev.done(1), s).state;
    expect(st.phase).toBe("reviewing");
    pre.update(st);
    // the fixer, and the next round's reviewer by role (this round's holds its key)
    expect(held.map((h) => h.id)).toEqual(["coder", "reviewer_logic~1"]);
    pre.update(apply(st, ev.review("reviewer_logic", "pass"), s).state);
    expect(dropped).toEqual(["coder", "reviewer_logic~1"]);
  });

  test("with prestart.fixer: false the fixer waits for the verdict (whether a fix round comes is not known); a provider with prestart: false is never pre-started", () => {
    let st = apply(planning, ev.plan(makePlan([{ mode: "serial", plans: [1] }])), s).state;
    expect(config().prestart.fixer).toBe(true);
    const a = fakeRuntime();
    const noFixer = new Prestarter({ runtime: a.runtime, config: config((c) => (c.prestart.fixer = false)), settings: s, log: () => {} });
    noFixer.update(st); // implementing: the reviewer only
    expect(a.held.map((h) => h.id)).toEqual(["reviewer_logic"]);
    st = apply(st, ev.done(1), s).state;
    noFixer.update(st); // reviewing: no fixer (the working reviewer's pre-start is its launch's)
    expect(a.held.map((h) => h.id)).toEqual(["reviewer_logic"]);
    const b = fakeRuntime();
    new Prestarter({ runtime: b.runtime, config: config((c) => (c.providers.sim!.prestart = false)), settings: s, log: () => {} }).update(planning);
    expect(b.held).toEqual([]);
  });

  test("at the orchestrator's start: a fresh run's first agent (architect, or the product manager), never a resumed run's", () => {
    const a = fakeRuntime();
    const pre = new Prestarter({ runtime: a.runtime, config: config(), settings: s, log: () => {} });
    pre.startFirst(freshState());
    pre.startFirst(freshState({ productManager: true }));
    expect(a.held.map((h) => h.id)).toEqual(["architect", "product-manager"]);
    const b = fakeRuntime();
    new Prestarter({ runtime: b.runtime, config: config(), settings: s, log: () => {} }).startFirst(planning);
    new Prestarter({ runtime: b.runtime, config: config((c) => (c.prestart.max_panes = 0)), settings: s, log: () => {} }).startFirst(freshState());
    expect(b.held).toEqual([]);
  });

  test("matchPrestarts: a key's own pre-start first, then one by role; the rest unused", () => {
    const held: HeldPrestart[] = [
      { id: "coder~1", agent: null, role: "coder" },
      { id: "coder:2", agent: "coder:2", role: "coder" },
      { id: "planner", agent: "planner", role: "planner" as Role },
    ];
    const r = matchPrestarts(
      [
        { agent: "coder:2", role: "coder" },
        { agent: "coder:3", role: "coder" },
        { agent: "coder:4", role: "coder" },
      ],
      held,
    );
    expect(r.unmet).toEqual([{ agent: "coder:4", role: "coder" }]);
    expect(r.unused.map((h) => h.id)).toEqual(["planner"]);
  });
});

describe("a pre-start by role whose token is gone", () => {
  test("is not taken over (its tool calls would name no agent, or the provisional one): closed, and the launch starts afresh", async () => {
    const { p, tokens, closed, logs } = pool();
    p.start({ agent: null, role: "coder" });
    const id = p.list()[0]!.id;
    await waitFor("the pre-start's token", () => tokens.link(id));
    tokens.revoke(id);
    expect(await p.take("coder:1", "coder", {}, LABEL)).toBeNull();
    expect(closed).toEqual(["%1"]);
    expect(tokens.link("coder:1")).toBeUndefined();
    expect(logs.some((l) => l.event === "prestart_dropped" && String(l.msg).includes("its MCP token is gone"))).toBe(true);
  });
});

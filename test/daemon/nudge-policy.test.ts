/**
 * A reminder to an agent whose turn ended without its submit (deliverNudge), on a fake clock: it
 * waits out the effect's delay, goes in only if the agent is still waiting (the orchestrator
 * sees it idle without its submit, its pane idle), and logs how long after the screen settled it
 * was accepted. No tmux: the runtime records what it is asked to deliver.
 */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/load.ts";
import { deliverNudge, type NudgeTarget } from "../../src/daemon/agent-io.ts";
import { allEvents, produced } from "../../src/daemon/outcome.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import type { Effect } from "../../src/schema/effects.ts";
import type { AgentStatus, State } from "../../src/schema/state.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { freshState } from "../orchestrator/fixtures.ts";

const config = loadConfig({ projectDir: "/nonexistent-project", env: { HOME: "/nonexistent-home" } }).config;
const AGENT = "coder_1";
type Nudge = Extract<Effect, { type: "nudge_agent" }>;
const nudge = (delay_ms: number): Nudge => ({
  type: "nudge_agent",
  agent: AGENT,
  tool: "submit_done",
  file: "plans/1/done.md",
  attempt: 1,
  limit: 2,
  decide: false,
  delay_ms,
});

function runtime(o: { status?: AgentStatus; idle?: boolean } = {}) {
  const clock = new FakeClock(5_000);
  const sent: string[] = [];
  const logs: { msg: string; data?: Record<string, unknown> }[] = [];
  let status: AgentStatus = o.status ?? "idle_without_submit";
  let idle = o.idle ?? true;
  const state = (): State => {
    const s = freshState();
    return { ...s, agents: { [AGENT]: { role: "coder", label: "coder 1", status, since: s.created_at } } } as State;
  };
  const rt: NudgeTarget = {
    clock,
    o: {
      sessionDir: "/s",
      state,
      isIdle: () => idle,
      turnEnd: () => ({ endedAt: 4_000, settledAt: 3_500 }),
      log: (msg, meta) => void logs.push({ msg, ...(meta?.data ? { data: meta.data } : {}) }),
    },
    resolvedOf: (agent) => (agent === AGENT ? resolveRole(config, "coder") : undefined),
    deliver: (agent, text, onDone) => {
      sent.push(text);
      onDone?.(true);
      return produced({ type: "agent_active", at: "2026-01-01T00:00:35.000Z", agent });
    },
  };
  return { rt, clock, sent, logs, setStatus: (s: AgentStatus) => void (status = s), setIdle: (b: boolean) => void (idle = b) };
}

describe("a reminder's policy, on a fake clock", () => {
  test("it goes in once its delay has passed, not before, naming the file, and logs when it was accepted after the screen settled", async () => {
    const r = runtime();
    const outcome = deliverNudge(r.rt, nudge(30_000));
    expect(outcome.events).toEqual([]);
    r.clock.advance(29_999);
    expect(r.sent).toEqual([]);
    r.clock.advance(1);
    expect(r.sent.length).toBe(1);
    expect(r.sent[0]).toContain("/s/plans/1/done.md");
    const accepted = r.logs.find((l) => l.data?.after_settled_ms !== undefined)!;
    // fired and accepted at 35 000, the screen settled at 3 500
    expect(accepted.data).toEqual({ reminder: 1, of: 2, after_settled_ms: 35_000 - 3_500 });
    r.clock.advance(60_000);
    expect(r.sent.length).toBe(1);
    // its outcome is the delivery's, once it was due
    expect((await allEvents(outcome)).map((e) => e.type)).toEqual(["agent_active"]);
  });

  test("without a delay it goes in at once", () => {
    const r = runtime();
    expect(deliverNudge(r.rt, nudge(0)).events.map((e) => e.type)).toEqual(["agent_active"]);
    expect(r.sent.length).toBe(1);
  });

  test("dropped when the agent is no longer waiting for it by the time it is due (it submitted meanwhile)", async () => {
    const r = runtime();
    const outcome = deliverNudge(r.rt, nudge(10_000));
    r.clock.advance(5_000);
    r.setStatus("done");
    r.clock.advance(5_000);
    expect(r.sent).toEqual([]);
    expect(r.logs.map((l) => l.data?.dropped)).toContain("done");
    expect(await allEvents(outcome)).toEqual([]);
  });

  test("dropped when the agent's pane shows it working again", () => {
    const r = runtime();
    deliverNudge(r.rt, nudge(10_000));
    r.setIdle(false);
    r.clock.advance(10_000);
    expect(r.sent).toEqual([]);
    expect(r.logs.map((l) => l.data?.dropped)).toContain("working");
  });
});

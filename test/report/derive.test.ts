import { describe, expect, test } from "bun:test";
import { PHASES } from "../../src/schema/catalog.ts";
import type { State } from "../../src/schema/state.ts";
import { RunEvent } from "../../src/schema/run-api/event.ts";
import { events } from "../../src/report/events.ts";
import { result } from "../../src/report/result.ts";
import { RunResult } from "../../src/schema/run-api/result.ts";
import { snapshot } from "../../src/report/snapshot.ts";
import { RunSnapshot } from "../../src/schema/run-api/snapshot.ts";
import { RUN_API_VERSION } from "../../src/schema/run-api/version.ts";
import { apply, clock, events as eventsOf, FEATURE_DIR, freshState } from "../orchestrator/fixtures.ts";
import { reach, STD_PLAN } from "../orchestrator/reach.ts";

const NOW = Date.UTC(2024, 0, 1, 1);
const snap = (state: State, live = true) => snapshot({ dir: FEATURE_DIR, state, id: "s1", live, toolEvents: 3, now: NOW });

/** Every state a run goes through (each one really reached by a transition). */
function statesOf(build: (ev: ReturnType<typeof eventsOf>) => Parameters<typeof apply>[1][]): State[] {
  const ev = eventsOf(clock());
  let state = freshState();
  const out: State[] = [];
  for (const e of build(ev)) {
    state = apply(state, e).state;
    out.push(state);
  }
  return out;
}

const fullRun = statesOf((ev) => [
  ev.start(),
  ev.arch(["reviewer_logic", "reviewer_quality"]),
  ev.plan(STD_PLAN),
  ev.stuck("coder:1"),
  ev.active("coder:1"),
  ev.done(1),
  ev.done(2),
  ev.done(3),
  ev.usage("coder:1"),
  ev.review("reviewer_logic", "pass", "feat: rate limiting"),
  ev.review("reviewer_quality", "pass"),
  ev.summary(),
  ev.approve(),
  ev.committed(),
]);

/** The events a follower derives from each state it sees, in order. */
const follow = (states: State[]) => {
  let prev: ReturnType<typeof snap> | null = null;
  return states.flatMap((s) => {
    const next = snap(s);
    const evs = events(prev, next);
    prev = next;
    return evs;
  });
};

describe("the run API's derivation", () => {
  test("a snapshot of every phase, live or stopped, is exactly what the schema says (nothing missing, nothing extra)", () => {
    for (const phase of PHASES) {
      for (const live of [true, false]) {
        const s = snap(reach(phase).state, live);
        expect(RunSnapshot.parse(JSON.parse(JSON.stringify(s)))).toEqual(JSON.parse(JSON.stringify(s)));
        expect(s.api_version).toBe(RUN_API_VERSION);
      }
    }
  });

  test("the stages say which are done, which is current and where a run failed", () => {
    const implementing = snap(reach("implementing").state);
    expect(implementing.stages.map((st) => `${st.phase}:${st.state}`)).toEqual([
      "architecting:done",
      "planning:done",
      "implementing:current",
      "reviewing:pending",
      "completing:pending",
    ]);
    const failed = snap(reach("failed").state);
    expect(failed.stages.find((st) => st.state === "failed")?.phase).toBe("architecting");
    expect(snap(reach("done").state).stages.every((st) => st.state === "done")).toBe(true);
  });

  test("what the run waits for: the decision while completing, a stuck agent", () => {
    const completing = snap(reach("completing").state);
    expect(completing.waiting_for).toEqual([
      { kind: "decision", approval: `${FEATURE_DIR}/08_completion/approval.json`, changes: `${FEATURE_DIR}/08_completion/changes.md` },
    ]);
    const stuck = snap(fullRun[3]!);
    expect(stuck.waiting_for).toContainEqual({ kind: "stuck_agent", agent: "coder:1", note: expect.any(String) });
  });

  test("a whole run's events: every phase once, in order; the stuck agent; each verdict; the decision; the commit", () => {
    const evs = follow(fullRun);
    for (const e of evs) expect(RunEvent.parse(e)).toEqual(e);
    const last = fullRun.at(-1)!;
    expect(evs.filter((e) => e.kind === "phase").map((e) => e.kind === "phase" && `${e.phase}@${e.at}`)).toEqual(
      (last.history ?? []).map((h) => `${h.phase}@${h.at}`),
    );
    expect(evs.filter((e) => e.kind === "agent_stuck").map((e) => e.kind === "agent_stuck" && e.agent)).toEqual(["coder:1"]);
    expect(
      evs
        .filter((e) => e.kind === "review_verdict")
        .map((e) => e.kind === "review_verdict" && `${e.reviewer}:${e.verdict}:${e.round}`)
        .sort(),
    ).toEqual(["reviewer_logic:pass:1", "reviewer_quality:pass:1"]);
    expect(evs.filter((e) => e.kind === "awaiting_decision")).toHaveLength(1);
    expect(evs.filter((e) => e.kind === "committed")).toEqual([{ kind: "committed", commit: "abc1234", branch: expect.anything(), at: expect.any(String) }]);
    expect(evs.filter((e) => e.kind === "agent_status" && e.agent === "coder:1").map((e) => e.kind === "agent_status" && `${e.from}>${e.status}`)).toEqual([
      "null>starting",
      "starting>stuck",
      "stuck>working",
      "working>done",
    ]);
  });

  test("a follower that sees only the first and the last state still gets every phase and the decision wait", () => {
    const sparse = follow([fullRun[0]!, fullRun.at(-1)!]);
    expect(sparse.filter((e) => e.kind === "phase")).toEqual(follow(fullRun).filter((e) => e.kind === "phase"));
    expect(sparse.filter((e) => e.kind === "awaiting_decision")).toHaveLength(1);
  });

  test("the same snapshot twice: no events", () => {
    const s = snap(fullRun[5]!);
    expect(events(s, s)).toEqual([]);
  });

  test("a canceled run: its interruption once, with the command that resumes it", () => {
    const states = statesOf((ev) => [ev.start(), ev.cancel()]);
    const evs = follow([...states, states.at(-1)!]).filter((e) => e.kind === "interrupted");
    expect(evs).toEqual([
      {
        kind: "interrupted",
        category: "canceled",
        cause: expect.any(String),
        resume_command: expect.stringContaining("agentmux resume"),
        at: expect.any(String),
      },
    ]);
  });

  test("the result: its schema, the resume command only when it did not succeed", () => {
    const done = result({ outcome: "success", exitCode: 0, state: reach("done").state });
    expect(RunResult.parse(done)).toEqual(done);
    expect(done).toMatchObject({ kind: "result", commit: "abc1234", resume_command: null, api_version: RUN_API_VERSION });
    const failed = result({ outcome: "canceled", exitCode: 130, state: reach("failed").state });
    expect(failed.resume_command).toBe("agentmux resume 20240101-000000-rate-limit");
  });
});

describe("an agent's events, as the CI printer has always said them", () => {
  const base = reach("implementing").state;
  const withAgent = (patch: Partial<NonNullable<State["agents"]>[string]>): State => ({
    ...base,
    agents: { ...base.agents, "coder:1": { ...base.agents!["coder:1"]!, ...patch } },
  });
  const kinds = (prev: State, next: State) => events(snap(prev), snap(next)).filter((e) => e.kind !== "agent_status");

  test("restarted, moved to a fallback, reminded, rate limited, asking, answered unseen: each once, when it starts", () => {
    const at = "2024-01-01T00:30:00.000Z";
    const q = { kind: "question" as const, text: "English only?", at };
    expect(kinds(base, withAgent({ status: "starting", restarts: 1, exit_status: "3", last_screen: ["boom"] }))).toEqual([
      { kind: "agent_restarted", agent: "coder:1", restarts: 1, exit_status: "3", last_line: "boom", at: expect.any(String) },
    ]);
    expect(kinds(withAgent({ provider: "claude" }), withAgent({ provider: "codex", limit: { text: "limit", reset_at: null, at } }))).toEqual([
      { kind: "agent_fallback", agent: "coder:1", from: "claude", to: "codex", limit: "limit", at: expect.any(String) },
    ]);
    expect(kinds(base, withAgent({ status: "idle_without_submit", idle_turns: 2 }))).toEqual([
      { kind: "agent_reminded", agent: "coder:1", reminders: 2, at: expect.any(String) },
    ]);
    expect(kinds(withAgent({ status: "idle_without_submit", idle_turns: 2 }), withAgent({ status: "idle_without_submit", idle_turns: 2 }))).toEqual([]);
    expect(kinds(base, withAgent({ status: "rate_limited", limit: { text: "limit", reset_at: at, at } }))).toEqual([
      { kind: "agent_rate_limited", agent: "coder:1", limit: { text: "limit", reset_at: at, at }, at: expect.any(String) },
    ]);
    expect(kinds(base, withAgent({ status: "needs_input", question: q }))).toEqual([
      { kind: "agent_needs_input", agent: "coder:1", question: q, at: expect.any(String) },
    ]);
    // a question asked and answered between two reads (a headless run decides at once) is said answered, once
    expect(kinds(base, withAgent({ status: "working", question: q, note: "decided: English" }))).toEqual([
      { kind: "agent_question_answered", agent: "coder:1", question: q, answer: "decided: English", at: expect.any(String) },
    ]);
    expect(
      kinds(withAgent({ status: "working", question: q, note: "decided: English" }), withAgent({ status: "working", question: q, note: "decided: English" })),
    ).toEqual([]);
    // one seen asking was said then: its answer adds nothing
    expect(kinds(withAgent({ status: "needs_input", question: q }), withAgent({ status: "working", question: q, note: "decided: English" }))).toEqual([]);
  });
});

test("a run canceled while fixing still shows the review round that failed, and says its verdicts no more", () => {
  const { state, ev, s } = reach("fixing");
  const canceled = apply(state, ev.cancel(), s).state;
  expect(canceled.phase).toBe("failed");
  expect(snap(canceled).review_round).toBe(snap(state).review_round);
  expect(events(snap(state), snap(canceled)).filter((e) => e.kind === "review_verdict")).toEqual([]);
});

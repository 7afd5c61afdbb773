import { describe, expect, test } from "bun:test";
import { decideText, deniedText } from "../../src/orchestrator/agent-events.ts";
import { owedSubmit } from "../../src/orchestrator/owed.ts";
import { prepareResume } from "../../src/orchestrator/resume.ts";
import type { State } from "../../src/schema/state.ts";
import { FEATURE_DIR, apply, drive, launched, ofType, settings } from "./fixtures.ts";
import { reach } from "./reach.ts";

const FACTS = { pmDone: false, hasArchitecture: true, hasExecutionPlan: true, hasDesign: false };
const ASSUMPTIONS = `${FEATURE_DIR}/assumptions.md`;

describe("turn ends without the submit: reminders, then stuck", () => {
  test("two reminders naming the tool and file (the first at once, then backoff), the third turn end marks it stuck", () => {
    const { state, ev } = reach("planning");
    let r = apply(state, ev.turnEnded("planner"));
    expect(r.state.agents!.planner).toMatchObject({ status: "idle_without_submit", idle_turns: 1 });
    expect(ofType(r.effects, "nudge_agent")).toEqual([
      { type: "nudge_agent", agent: "planner", tool: "submit_plan", file: "04_planning/plan.yaml", attempt: 1, limit: 2, decide: false, delay_ms: 0 },
    ]);
    r = apply(apply(r.state, ev.active("planner")).state, ev.turnEnded("planner"));
    expect(ofType(r.effects, "nudge_agent")[0]).toMatchObject({ attempt: 2, delay_ms: 5000 });
    r = apply(apply(r.state, ev.active("planner")).state, ev.turnEnded("planner"));
    expect(r.state.agents!.planner).toMatchObject({ status: "stuck", note: "ended its turn 3 times without calling submit_plan (2 reminders sent)" });
    expect(ofType(r.effects, "attention")).toEqual([
      { type: "attention", agent: "planner", text: "[planner] planning is stuck: ended its turn 3 times without calling submit_plan (2 reminders sent)" },
    ]);
    expect(r.state.phase).toBe("planning");
  });

  test("a turn end after writing the file it owes (the summary), before the file watcher saw it stable: no reminder, idle", () => {
    const { state, ev } = reach("reviewing");
    const passed = drive(state, [ev.review("reviewer_logic", "pass"), ev.review("reviewer_quality", "pass")]).state;
    expect(passed.awaiting_summary).toBe(true);
    expect(owedSubmit(passed, "reviewer_logic")).toEqual({ tool: null, file: "08_completion/summary.md" });
    const written = apply(passed, { ...ev.turnEnded("reviewer_logic"), owed_file_written: true } as never);
    expect(ofType(written.effects, "nudge_agent")).toEqual([]);
    expect(written.state.agents!.reviewer_logic!.status).toBe("idle");
    // not written: the reminder names the file
    expect(ofType(apply(passed, ev.turnEnded("reviewer_logic")).effects, "nudge_agent")[0]).toMatchObject({ tool: null, file: "08_completion/summary.md" });
    // a tool still owed is owed whatever files are on disk
    const { state: planning, ev: ev2 } = reach("planning");
    expect(ofType(apply(planning, { ...ev2.turnEnded("planner"), owed_file_written: true } as never).effects, "nudge_agent").length).toBe(1);
  });

  test("headless: a stuck agent fails the run (exit 1) with the cause", () => {
    const { state, ev } = reach("planning", settings({ headless: true, nudges: 0 }));
    const r = apply(state, ev.turnEnded("planner"), settings({ headless: true, nudges: 0 }));
    expect(r.state).toMatchObject({
      phase: "failed",
      interruption_category: "failed",
      interruption_cause: "the [planner] planning agent is stuck: ended its turn once without calling submit_plan (0 reminders sent)",
    });
    expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code: 1, cleanup: false }]);
  });

  test("a refused submit is work: the reminders start over and the next one names the refusal", () => {
    const { state, ev } = reach("architecting");
    let r = drive(state, [ev.turnEnded("architect"), ev.active("architect"), ev.turnEnded("architect")]);
    expect(r.state.agents!.architect!.idle_turns).toBe(2);
    r = apply(r.state, ev.toolCall("architect", false, "submit_architecture", "submit_architecture was refused: architecture.md is empty"));
    expect(r.state.agents!.architect).toMatchObject({ status: "working", idle_turns: 0 });
    r = apply(r.state, ev.turnEnded("architect"));
    expect(ofType(r.effects, "nudge_agent")[0]).toMatchObject({ attempt: 1, refusal: "submit_architecture was refused: architecture.md is empty" });
  });

  test("the same refusal again is no progress: the reminders go on counting, then the agent is stuck (seen with real claude)", () => {
    const { state, ev } = reach("architecting");
    const refused = "submit_architecture was refused: architecture.md has a problem: file not found";
    let r = drive(state, [ev.toolCall("architect", false, "submit_architecture", refused), ev.turnEnded("architect")]);
    expect(ofType(r.effects, "nudge_agent")[0]).toMatchObject({ attempt: 1, refusal: refused });
    // the reminder only makes it call the tool again, refused the same way
    r = drive(r.state, [ev.active("architect"), ev.toolCall("architect", false, "submit_architecture", refused), ev.turnEnded("architect")]);
    expect(ofType(r.effects, "nudge_agent")[0]).toMatchObject({ attempt: 2 });
    r = drive(r.state, [ev.active("architect"), ev.toolCall("architect", false, "submit_architecture", refused), ev.turnEnded("architect")]);
    expect(r.state.agents!.architect).toMatchObject({ status: "stuck" });
    // a different refusal is progress: the count starts over
    const { state: s2, ev: e2 } = reach("architecting");
    r = drive(s2, [e2.toolCall("architect", false, "submit_architecture", refused), e2.turnEnded("architect"), e2.active("architect")]);
    r = drive(r.state, [
      e2.toolCall("architect", false, "submit_architecture", "submit_architecture was refused: architecture.md is empty"),
      e2.turnEnded("architect"),
    ]);
    expect(ofType(r.effects, "nudge_agent")[0]).toMatchObject({ attempt: 1 });
  });

  test("what an agent owes: its tool and file; nothing while its research runs, once it submitted, or for the summary file", () => {
    const { state, ev } = reach("architecting");
    expect(owedSubmit(state, "architect")).toEqual({ tool: "submit_architecture", file: "02_architecting/architecture.md" });
    const waiting = apply(state, ev.dispatch("limits")).state;
    expect(owedSubmit(waiting, "architect")).toBeNull();
    const r = apply(waiting, ev.turnEnded("architect"));
    expect(r.state.agents!.architect!.status).toBe("idle");
    expect(ofType(r.effects, "nudge_agent")).toEqual([]);
    const impl = reach("implementing").state;
    expect(owedSubmit(impl, "coder:2")).toEqual({ tool: "submit_done", file: "06_implementation/done_2.json" });
    const fixing = reach("fixing").state;
    expect(owedSubmit(fixing, "coder")).toEqual({ tool: "submit_done", file: "06_implementation/done_1.json" });
    const { state: rev, ev: rv } = reach("reviewing");
    const summary = drive(rev, [rv.review("reviewer_logic", "pass"), rv.review("reviewer_quality", "pass")]).state;
    expect(owedSubmit(summary, "reviewer_logic")).toEqual({ tool: null, file: "08_completion/summary.md" });
  });
});

describe("questions and dialogs", () => {
  test("attended: an architect's question is needs_input with the text, and a call for attention; answering makes it work again", () => {
    const { state, ev } = reach("architecting");
    let r = apply(state, ev.turnEnded("architect", "Should limits be per user or per IP?"));
    expect(r.state.agents!.architect).toMatchObject({ status: "needs_input", question: { kind: "question", text: "Should limits be per user or per IP?" } });
    expect(ofType(r.effects, "attention")[0]!.text).toBe("[architect] architecture asks: Should limits be per user or per IP?");
    expect(ofType(r.effects, "nudge_agent")).toEqual([]);
    r = apply(r.state, ev.active("architect"));
    expect(r.state.agents!.architect).toMatchObject({ status: "working", question: undefined });
  });

  test("a coder's question (a role that may not ask) is a turn end: the reminder tells it to decide", () => {
    const { state, ev } = reach("implementing");
    const r = apply(state, ev.turnEnded("coder:1", "Should I also add a CLI flag?"));
    expect(ofType(r.effects, "nudge_agent")[0]).toMatchObject({ agent: "coder:1", decide: true });
  });

  test("headless, questions = decide: told to decide and note the assumption; a permission dialog is dismissed and declined", () => {
    const s = settings({ headless: true });
    const { state, ev } = reach("architecting", s);
    let r = apply(state, ev.turnEnded("architect", "Per user or per IP?"), s);
    expect(r.state.agents!.architect!.status).not.toBe("needs_input");
    expect(ofType(r.effects, "notify_agent")).toEqual([{ type: "notify_agent", agent: "architect", text: decideText(ASSUMPTIONS) }]);
    expect(ofType(r.effects, "append_file")[0]).toMatchObject({ path: "assumptions.md" });
    r = apply(r.state, ev.dialog("architect", "permission", "Do you want to proceed? git -C /proj status"), s);
    expect(r.effects.map((e) => e.type)).toEqual(["dismiss_dialog", "append_file", "notify_agent", "log"]);
    expect(ofType(r.effects, "notify_agent")[0]!.text).toBe(deniedText(ASSUMPTIONS));
  });

  test("headless, questions = fail: the question fails the run with its text", () => {
    const s = settings({ headless: true, questions: "fail" });
    const { state, ev } = reach("planning", s);
    const r = apply(state, ev.dialog("planner", "question", "Which database? · 1. Postgres · 2. SQLite"), s);
    expect(r.state).toMatchObject({
      phase: "failed",
      interruption_cause: "the [planner] planning agent asks in a headless run (headless.questions = fail): Which database? · 1. Postgres · 2. SQLite",
    });
  });
});

describe("usage limits", () => {
  test("no fallback: rate_limited with the reset time; the reset sends it back to its prompt", () => {
    const { state, ev } = reach("implementing");
    let r = apply(state, ev.limited("coder:1", "2024-01-01T05:00:00.000Z", "usage limit reached · resets 5am"));
    expect(r.state.agents!["coder:1"]).toMatchObject({
      status: "rate_limited",
      limit: { text: "usage limit reached · resets 5am", reset_at: "2024-01-01T05:00:00.000Z" },
    });
    r = apply(r.state, ev.limitReset("coder:1"));
    expect(r.state.agents!["coder:1"]!.status).toBe("working");
    expect(ofType(r.effects, "notify_agent")[0]!.text).toBe(
      `The usage limit has reset. Continue your task: read and follow the instructions in ${FEATURE_DIR}/06_implementation/coder_prompt_1.md. Do not redo work that is already done.`,
    );
  });

  test("with fallback providers: restarted on the next one with the same prompt (re-rendered for its CLI), then waits when none is left", () => {
    const s = settings();
    s.role_agents.coder = { provider: "claude", model: null, fallback: ["codex"] };
    const { state, ev } = reach("implementing", s);
    let r = apply(state, ev.limited("coder:1"), s);
    expect(r.state.agents!["coder:1"]).toMatchObject({ status: "starting", provider: "codex", fallen_from: ["claude"] });
    expect(ofType(r.effects, "launch_agent")).toEqual([{ type: "launch_agent", agent: "coder:1", role: "coder", label: "[coder] part 1", provider: "codex" }]);
    expect(ofType(r.effects, "write_prompt")[0]).toMatchObject({ path: "06_implementation/coder_prompt_1.md", agent: "coder:1", interrupted: true });
    expect(ofType(r.effects, "send_prompt").map((e) => e.prompt)).toEqual(["06_implementation/coder_prompt_1.md"]);
    r = apply(apply(r.state, ev.active("coder:1"), s).state, ev.limited("coder:1"), s);
    expect(r.state.agents!["coder:1"]).toMatchObject({ status: "rate_limited", provider: "codex" });
  });
});

describe("conversations", () => {
  test("a resumed run continues each interrupted agent's conversation; a fresh launch of a finished agent starts a new one", () => {
    const { state, ev } = reach("implementing");
    const withIds = drive(state, [
      ev.conversation("coder:1", "11111111-1111-4111-8111-111111111111"),
      ev.conversation("coder:2", "22222222-2222-4222-8222-222222222222"),
    ]).state;
    const failed = apply(withIds, ev.cancel()).state;
    const resumed: State = prepareResume(failed, FACTS, ev.start().at);
    const back = apply(resumed, ev.resume());
    expect(ofType(back.effects, "launch_agent").map((e) => e.conversation)).toEqual([
      "11111111-1111-4111-8111-111111111111",
      "22222222-2222-4222-8222-222222222222",
    ]);
    // plan 1 done: its coder is finished; the next group's coder starts fresh
    const next = drive(back.state, [ev.done(1), ev.done(2)]);
    expect(launched(next.effects)).toEqual(["coder"]);
    expect(ofType(next.effects, "launch_agent")[0]!.conversation).toBeUndefined();
  });

  test("run time counts across resumes: the earlier lifetime is added to active_ms", () => {
    const { state, ev } = reach("architecting");
    const failed = apply(state, ev.cancel()).state;
    const lived = Date.parse(failed.updated_at) - Date.parse(failed.active_since!);
    expect(lived).toBeGreaterThan(0);
    const resumed = prepareResume(failed, FACTS, "2024-01-02T00:00:00.000Z");
    expect(resumed.active_ms).toBe(lived);
    const again = prepareResume(
      { ...apply(resumed, ev.resume()).state, phase: "failed", updated_at: "2024-01-02T00:00:10.000Z" },
      FACTS,
      "2024-01-03T00:00:00.000Z",
    );
    expect(again.active_ms! - lived).toBeGreaterThan(0);
  });

  test("a killed orchestrator's lifetime ends at its last heartbeat when that is later than its last state write", () => {
    const { state, ev } = reach("architecting");
    const since = Date.parse(state.active_since!);
    const beat = new Date(since + 7_000).toISOString();
    expect(prepareResume(state, { ...FACTS, lastAliveAt: beat }, "2024-01-02T00:00:00.000Z").active_ms).toBe(7_000);
    // a heartbeat older than the last write (clock skew, an old file) never shortens the lifetime
    const lived = Date.parse(state.updated_at) - since;
    const old = new Date(since - 60_000).toISOString();
    expect(prepareResume(state, { ...FACTS, lastAliveAt: old }, "2024-01-02T00:00:00.000Z").active_ms).toBe(lived);
  });
});

import { describe, expect, test } from "bun:test";
import { PHASES, type Phase, type WorkflowEvent } from "../../src/schema/catalog.ts";
import { Event } from "../../src/schema/events.ts";
import type { Effect } from "../../src/schema/effects.ts";
import type { State } from "../../src/schema/state.ts";
import { transition } from "../../src/orchestrator/transition.ts";
import { apply, core, killed, launched, ofType, templates, written, type Events } from "./fixtures.ts";
import { LIVE_AGENT, STD_PLAN, reach } from "./reach.ts";

type EventType = Event["type"];
const EVENT_TYPES = Event.options.map((o) => o.shape.type.value) as EventType[];
type R = { state: State; effects: Effect[] };
type Row = { to: Phase; last?: WorkflowEvent; check?: (r: R, before: State) => void };

/** A plausible instance of each event type for a state reached in `phase`. */
function sample(type: EventType, phase: Phase, ev: Events): Event {
  const live = LIVE_AGENT[phase] ?? "reviewer_logic";
  switch (type) {
    case "start":
      return ev.start();
    case "resume":
      return ev.resume();
    case "pm_done":
      return ev.pm();
    case "architecture_submitted":
      return ev.arch(["reviewer_expert"]);
    case "plan_submitted":
      return ev.plan(STD_PLAN);
    case "review_submitted":
      return ev.review("reviewer_logic", "pass");
    case "coder_done":
      return ev.done(1);
    case "research_dispatched":
      return ev.dispatch("rate-limits");
    case "research_done":
      return ev.researched("never-dispatched");
    case "tool_rejected":
      return ev.rejected();
    case "design_written":
      return ev.design();
    case "summary_written":
      return ev.summary();
    case "approval_written":
      return ev.approve();
    case "changes_written":
      return ev.changes();
    case "panel_requested":
      return ev.panel();
    case "pane_exited":
      return ev.paneExited(live, "exit 1");
    case "agent_stuck":
      return ev.stuck(live);
    case "agent_active":
      return ev.active(live);
    case "cancel":
      return ev.cancel();
    case "timeout":
      return ev.timeout();
    case "effect_failed":
      return ev.effectFailed();
    case "run_lost":
      return ev.runLost();
    case "committed":
      return ev.committed();
    case "commit_failed":
      return ev.commitFailed();
    case "agent_turn_ended":
      return ev.turnEnded(live);
    case "agent_dialog":
      return ev.dialog(live);
    case "agent_rate_limited":
      return ev.limited(live, "2024-01-01T05:00:00.000Z");
    case "limit_reset":
      return ev.limitReset(live);
    case "agent_tool_call":
      return ev.toolCall(live);
    case "conversation_captured":
      return ev.conversation(live);
    case "usage_read":
      return ev.usage(live);
    case "budget_go_on":
      return ev.goOn();
    case "check_started":
      return ev.checkStarted(1, "test");
    case "check_finished":
      return ev.checkFinished(1, "test");
    case "agent_answer":
      return ev.answer(live, "2020-01-01T00:00:00.000Z");
  }
}

const onlyLogs = (r: R) => expect(r.effects.every((e) => e.type === "log")).toBe(true);
const unchanged = (r: R, before: State) => expect(core(r.state)).toEqual(core(before));
const ignored: Row["check"] = (r, before) => {
  unchanged(r, before);
  onlyLogs(r);
};
const failedWith =
  (code: number, cause: RegExp): Row["check"] =>
  (r) => {
    expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code, cleanup: false }]);
    expect(r.state.interruption_cause).toMatch(cause);
    expect(r.state.interruption_resume_command).toBe("agentmux resume 20240101-000000-rate-limit");
    expect(r.state.interruption_category).toBe(code === 130 ? "canceled" : "failed");
  };
const reentered =
  (agent: string | null): Row["check"] =>
  (r) => {
    if (agent) expect(launched(r.effects)).toContain(agent);
    else expect(ofType(r.effects, "show_completion_panel").length).toBe(1);
  };
const research: Partial<Record<EventType, (p: Phase) => Row>> = {
  research_dispatched: (p) => ({
    to: p,
    check: (r) => {
      expect(written(r.effects)).toEqual(["03_research/code-rate-limits/request.md"]);
      expect(ofType(r.effects, "launch_agent")).toEqual([
        {
          type: "launch_agent",
          agent: "code-researcher:rate-limits",
          role: "code-researcher",
          label: "[code-researcher] rate-limits",
          batch_prompt: "03_research/code-rate-limits/prompt.md",
        },
      ]);
      expect(r.state.research_tasks).toEqual({ "rate-limits": "dispatched" });
    },
  }),
  // a topic that was never dispatched: nothing to kill, nobody to tell
  research_done: (p) => ({
    to: p,
    check: (r, b) => {
      unchanged(r, b);
      expect(r.effects).toEqual([]);
    },
  }),
};

/** Rows that differ from "ignored"; runtime rows apply to every live phase. */
function row(phase: Phase, type: EventType): Row {
  if ((phase === "done" || phase === "failed") && type === "usage_read")
    // a finished run's last figures are still recorded, nothing else happens (#14.2)
    return {
      to: phase,
      check: (r, b) => {
        expect({ ...r.state, usage: undefined }).toEqual({ ...b, usage: undefined });
        expect(Object.keys(r.state.usage!)).toHaveLength(1);
        expect(r.effects).toEqual([]);
      },
    };
  if (phase === "done" || phase === "failed")
    return {
      to: phase,
      check: (r, b) => {
        expect(r.state).toBe(b);
        expect(r.effects).toEqual([]);
      },
    };
  const live = LIVE_AGENT[phase];
  switch (type) {
    case "start":
    case "resume":
      return { to: phase, check: reentered(live) };
    case "cancel":
      return { to: "failed", last: "run_canceled", check: failedWith(130, /^Ctrl-C in the launcher$/) };
    case "timeout":
      return { to: "failed", last: "run_failed", check: failedWith(1, /architect idle/) };
    case "effect_failed":
      return { to: "failed", last: "run_failed", check: failedWith(1, /^launch_agent failed: tmux split-window/) };
    case "run_lost":
      return { to: "failed", last: "run_failed", check: failedWith(1, /^the tmux server \(socket agentmux\) is gone$/) };
    case "pane_exited":
      if (!live) return { to: phase, check: ignored }; // reviewer_logic was closed on purpose
      // an agent crash is restarted with the same prompt, never a cancel
      return {
        to: phase,
        check: (r, b) => {
          expect(r.state.agents![live]).toMatchObject({ status: "starting", restarts: 1 });
          expect(launched(r.effects)).toEqual([live]);
          expect(ofType(r.effects, "send_prompt").map((e) => e.prompt)).toEqual([b.agents![live]!.prompt!.path]);
          expect(ofType(r.effects, "write_prompt").every((e) => e.interrupted === true)).toBe(true);
        },
      };
    case "agent_turn_ended":
      if (!live) return { to: phase, check: ignored };
      return {
        to: phase,
        check: (r) => {
          expect(r.state.agents![live]).toMatchObject({ status: "idle_without_submit", idle_turns: 1 });
          expect(ofType(r.effects, "nudge_agent")).toMatchObject([{ agent: live, attempt: 1, limit: 2, delay_ms: 0 }]);
        },
      };
    case "agent_dialog":
      if (!live) return { to: phase, check: ignored };
      return {
        to: phase,
        check: (r) => {
          expect(r.state.agents![live]).toMatchObject({ status: "needs_input", question: { kind: "permission", text: "Do you want to proceed?" } });
          expect(ofType(r.effects, "attention").length).toBe(1);
        },
      };
    case "agent_rate_limited":
      if (!live) return { to: phase, check: ignored };
      return {
        to: phase,
        check: (r) => expect(r.state.agents![live]).toMatchObject({ status: "rate_limited", limit: { reset_at: "2024-01-01T05:00:00.000Z" } }),
      };
    case "limit_reset":
      return { to: phase, check: ignored }; // the agent was not waiting on a limit
    case "agent_tool_call":
      if (!live) return { to: phase, check: ignored };
      return {
        to: phase,
        check: (r) =>
          expect(r.state.agents![live]).toMatchObject({ status: "working", idle_turns: 0, refusal: "submit_plan was refused: plan.yaml has a problem" }),
      };
    case "conversation_captured":
      if (!live) return { to: phase, check: ignored };
      return { to: phase, check: (r) => expect(r.state.agents![live]!.conversation_id).toBe("0b6a4c8e-1111-4222-8333-944455556666") };
    case "agent_stuck":
      return {
        to: phase,
        check: (r, b) => (live ? expect(r.state.agents![live]).toMatchObject({ status: "stuck", note: "Enter not accepted after 3 tries" }) : ignored!(r, b)),
      };
    case "agent_active":
      return { to: phase, check: (r, b) => (live ? expect(r.state.agents![live]!.status).toBe("working") : ignored!(r, b)) };
    case "tool_rejected":
      return { to: phase, check: ignored };
    // no batch of checks was started: nothing counts
    case "check_started":
    case "check_finished":
      return { to: phase, check: ignored };
    case "budget_go_on":
      return { to: phase, check: ignored }; // the run was not paused at its budget
    case "agent_answer":
      return { to: phase, check: ignored }; // no agent waits on that question
    case "usage_read":
      return { to: phase, check: (r) => expect(r.state.usage!["0b6a4c8e-1111-4222-8333-944455556666"]).toMatchObject({ provider: "claude", cost_usd: 0.5 }) };
  }
  const handled: Partial<Record<Phase, Partial<Record<EventType, Row>>>> = {
    product_management: {
      pm_done: {
        to: "architecting",
        last: "pm_completed",
        check: (r) => {
          expect(killed(r.effects)).toEqual(["product-manager"]);
          expect(launched(r.effects)).toEqual(["architect"]);
        },
      },
    },
    architecting: {
      architecture_submitted: {
        to: "planning",
        last: "architecture_written",
        check: (r) => {
          expect(r.state.reviewer_nominations).toEqual(["reviewer_expert"]);
          expect(killed(r.effects)).toEqual(["architect"]);
          expect(ofType(r.effects, "delete_file").map((e) => e.path)).toContain("08_completion/changes.md");
          expect(templates(r.effects)).toEqual(["04_planning/planner_prompt.md<-planner"]);
        },
      },
    },
    planning: {
      plan_submitted: {
        to: "implementing",
        last: "plan_written",
        check: (r) => {
          expect(written(r.effects)).toEqual([
            "04_planning/plan_1.md",
            "04_planning/tasks_1.md",
            "04_planning/plan_2.md",
            "04_planning/tasks_2.md",
            "04_planning/plan_3.md",
            "04_planning/tasks_3.md",
            "04_planning/plan.md",
            "04_planning/execution_plan.yaml",
          ]);
          expect(killed(r.effects)).toEqual(["planner"]);
          expect(launched(r.effects)).toEqual(["coder:1", "coder:2"]);
          expect(r.state).toMatchObject({
            subplan_count: 3,
            implementation_group_total: 2,
            implementation_group_index: 1,
            implementation_group_mode: "parallel",
            implementation_active_plan_ids: ["1", "2"],
          });
        },
      },
    },
    designing: {
      design_written: {
        to: "implementing",
        last: "design_written",
        check: (r) => {
          expect(killed(r.effects)).toEqual(["designer"]);
          expect(launched(r.effects)).toEqual(["coder"]);
        },
      },
    },
    implementing: {
      coder_done: {
        to: "implementing",
        check: (r) => {
          expect(r.state).toMatchObject({ completed_subplans: ["1"], implementation_active_plan_ids: ["2"], implementation_group_index: 1 });
          expect(written(r.effects)).toEqual(["06_implementation/done_1"]);
          expect(killed(r.effects)).toEqual(["coder:1"]);
          expect(ofType(r.effects, "check_off_tasks")).toEqual([{ type: "check_off_tasks", plan_index: 1, tasks: ["write src/part1.ts"] }]);
        },
      },
    },
    reviewing: {
      review_submitted: {
        to: "reviewing",
        check: (r) => {
          expect(r.state.active_reviews).toEqual({ reviewer_logic: "completed", reviewer_quality: "pending" });
          expect(written(r.effects)).toEqual(["07_review/review_0_reviewer_logic.md"]);
          expect(killed(r.effects)).toEqual([]); // the coordinator stays for the summary
        },
      },
      summary_written: {
        to: "reviewing",
        check: (r, b) => {
          unchanged(r, b);
          expect(r.effects).toEqual([]);
        },
      },
    },
    fixing: {
      coder_done: {
        to: "reviewing",
        last: "implementation_completed",
        check: (r) => {
          expect(r.state.review_iteration).toBe(1);
          expect(templates(r.effects)).toEqual(["07_review/review_logic_prompt.md<-review-followup", "07_review/review_quality_prompt.md<-review-followup"]);
        },
      },
    },
    completing: {
      approval_written: {
        to: "completing",
        check: (r) => {
          expect(r.state.approved_at).toBeDefined();
          expect(ofType(r.effects, "commit")).toEqual([
            { type: "commit", approval: { action: "approve", exclude_files: [] }, suggested_message: "feat: rate limiting" },
          ]);
        },
      },
      changes_written: {
        to: "planning",
        last: "changes_requested",
        check: (r) => {
          expect(r.state).toMatchObject({ replanning: true, review_iteration: 0, subplan_count: 0, completed_subplans: [] });
          expect(templates(r.effects)).toEqual(["04_planning/changes_prompt.md<-change"]);
          expect(ofType(r.effects, "close_completion_panel").length).toBe(1);
        },
      },
      committed: {
        to: "done",
        last: "approval_received",
        check: (r) => {
          expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code: 0, cleanup: true }]);
          expect(r.state).toMatchObject({ commit_hash: "abc1234", feature_branch: "feature/rate-limit", pr_url: null, cleanup_feature_dir: true });
        },
      },
      commit_failed: { to: "failed", last: "run_failed", check: failedWith(1, /^commit failed: nothing to commit$/) },
      panel_requested: {
        to: "completing",
        check: (r, b) => {
          unchanged(r, b);
          expect(r.effects).toEqual([{ type: "show_completion_panel" }]);
        },
      },
    },
  };
  const hit = handled[phase]?.[type];
  if (hit) return hit;
  if (["product_management", "architecting", "planning"].includes(phase) && research[type]) return research[type]!(phase);
  return { to: phase, check: ignored };
}

describe("every (phase, event) pair", () => {
  test("the table covers every phase and every event type", () => {
    expect(PHASES.length).toBe(10);
    expect(EVENT_TYPES.length).toBe(35);
  });
  for (const phase of PHASES) {
    describe(phase, () => {
      for (const type of EVENT_TYPES) {
        test(type, () => {
          const { state, ev, s } = reach(phase);
          const event = sample(type, phase, ev);
          const expected = row(phase, type);
          const r = apply(state, event, s);
          expect(r.state.phase).toBe(expected.to);
          expect(r.state.last_event).toBe(expected.last ?? state.last_event);
          if (phase !== "done" && phase !== "failed") expect(r.state.updated_at).toBe(event.at);
          expected.check?.(r, state);
          // the input state is never mutated
          expect(transition(state, event, s)).toEqual(r);
        });
      }
    });
  }
});

import { describe, expect, test } from "bun:test";
import { inferResumePhase, prepareResume } from "../../src/orchestrator/resume.ts";
import { FEATURE_DIR, apply, drive, killed, launched, liveAgents, ofType, settings, templates } from "./fixtures.ts";
import { reach } from "./reach.ts";

const FACTS = { pmDone: true, hasArchitecture: true, hasExecutionPlan: true, hasDesign: false };

describe("research", () => {
  test("dispatch, idempotent re-dispatch, done: the owner is told the absolute summary path", () => {
    const { state, ev } = reach("architecting");
    const d = ev.dispatch("token-bucket", "web");
    let r = apply(state, d);
    const request = ofType(r.effects, "write_file")[0]!;
    expect(request.path).toBe("03_research/web-token-bucket/request.md");
    expect(request.content).toBe(
      "# Research Request: token-bucket\n\n## Context\n\nwhy token-bucket\n\n## Questions\n\n- what about token-bucket?\n\n## Scope Hints\n\n- src/\n",
    );
    expect(templates(r.effects)).toEqual(["03_research/web-token-bucket/prompt.md<-web-researcher"]);
    expect(r.state.web_research_tasks).toEqual({ "token-bucket": "dispatched" });
    expect(r.state.research_tasks).toEqual({});
    expect(liveAgents(r.state)).toEqual(["architect", "web-researcher:token-bucket"]);

    const again = apply(r.state, { ...d, at: ev.start().at });
    expect(again.effects.map((e) => e.type)).toEqual(["log"]);
    expect(again.state.agents).toEqual(r.state.agents);

    r = apply(r.state, ev.researched("token-bucket", "web"));
    expect(killed(r.effects)).toEqual(["web-researcher:token-bucket"]);
    expect(r.state.web_research_tasks).toEqual({ "token-bucket": "done" });
    expect(ofType(r.effects, "notify_agent")).toEqual([
      {
        type: "notify_agent",
        agent: "architect",
        text: `Research on token-bucket is complete. Read "${FEATURE_DIR}/03_research/web-token-bucket/summary.md" and continue.`,
      },
    ]);
    // a duplicate done is ignored: nobody is told twice
    expect(apply(r.state, ev.researched("token-bucket", "web")).effects).toEqual([]);
    // a finished topic is not dispatched again
    expect(launched(apply(r.state, ev.dispatch("token-bucket", "web")).effects)).toEqual([]);
  });

  test("the planner and the product manager own their research", () => {
    for (const [phase, owner] of [
      ["planning", "planner"],
      ["product_management", "product-manager"],
    ] as const) {
      const { state, ev } = reach(phase);
      const r = drive(state, [ev.dispatch("limits"), ev.researched("limits")]);
      expect(ofType(r.effects, "notify_agent").map((n) => n.agent)).toEqual([owner]);
    }
  });

  test("a crashed researcher: the owner is told, the run goes on, the topic may be dispatched again", () => {
    const { state, ev } = reach("architecting");
    let r = drive(state, [ev.dispatch("limits"), ev.dispatch("caches")]);
    r = apply(r.state, ev.paneExited("code-researcher:limits", "exit 137"));
    expect(r.state.phase).toBe("architecting");
    expect(r.state.last_event).toBe("feature_created");
    expect(ofType(r.effects, "finish")).toEqual([]);
    expect(ofType(r.effects, "notify_agent")).toEqual([
      {
        type: "notify_agent",
        agent: "architect",
        text: "Research on limits failed: the researcher exited before finishing. Dispatch it again or continue without it.",
      },
    ]);
    expect(r.state.research_tasks).toEqual({ caches: "dispatched" });
    expect(r.state.agents!["code-researcher:limits"]!.status).toBe("exited");
    r = apply(r.state, ev.dispatch("limits"));
    expect(launched(r.effects)).toEqual(["code-researcher:limits"]);
    expect(r.state.research_tasks).toEqual({ caches: "dispatched", limits: "dispatched" });
    expect(liveAgents(r.state)).toEqual(["architect", "code-researcher:caches", "code-researcher:limits"]);
  });
});

describe("interruptions", () => {
  test("a crashed agent is restarted with its prompt (watchdog.restarts times); then the run fails (exit 1, never a cancel) with the exit status and last screen", () => {
    const { state, ev } = reach("implementing");
    const crash = (s: typeof state) =>
      apply(s, { type: "pane_exited", at: ev.start().at, agent: "coder:2", exit_status: "3", screen: ["working on plan 2", "", "Error: out of memory"] });
    let r = crash(state);
    expect(r.state.phase).toBe("implementing");
    expect(r.state.agents!["coder:2"]).toMatchObject({
      status: "starting",
      restarts: 1,
      exit_status: "3",
      last_screen: ["working on plan 2", "Error: out of memory"],
    });
    expect(r.effects.map((e) => e.type)).toEqual(["log", "log", "launch_agent", "write_prompt", "send_prompt"]);
    expect(ofType(r.effects, "write_prompt")[0]).toMatchObject({
      path: "06_implementation/coder_prompt_2.md",
      template: "coder",
      vars: { plan_index: "2" },
      interrupted: true,
      agent: "coder:2",
    });
    r = crash(apply(r.state, ev.active("coder:2")).state);
    expect(r.state.agents!["coder:2"]!.restarts).toBe(2);
    r = crash(r.state);
    expect(r.state).toMatchObject({
      phase: "failed",
      last_event: "run_failed",
      interruption_category: "failed",
      interruption_cause: "the [coder] part 2 pane exited with status 3 after 2 restarts while the run was implementing; its last line: Error: out of memory",
      interruption_resume_command: "agentmux resume 20240101-000000-rate-limit",
      interruption_log_path: `${FEATURE_DIR}/orchestrator.log`,
    });
    expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code: 1, cleanup: false }]);
    expect(r.state.agents!["coder:2"]).toMatchObject({ status: "exited", exit_status: "3" });
    expect(inferResumePhase(r.state, FACTS)).toBe("implementing");
    const resumed = prepareResume(r.state, FACTS, ev.start().at);
    expect(resumed.interruption_cause).toBeUndefined();
    expect(resumed.agents!["coder:1"]).toMatchObject({ status: "exited", interrupted: true });
    const back = apply(resumed, ev.resume());
    expect(back.state.phase).toBe("implementing");
    expect(launched(back.effects)).toEqual(["coder:1", "coder:2"]); // neither plan was done
    // the relaunched coders are told an earlier attempt was interrupted, once
    expect(ofType(back.effects, "write_prompt").map((e) => e.interrupted)).toEqual([true, true]);
    expect(back.state.agents!["coder:2"]).toMatchObject({ restarts: 0, interrupted: undefined });
  });

  test("a parallel group resumed with one plan left relaunches that plan's coder under its own key, in its conversation; no stray EXITED coder stays", () => {
    const { state, ev } = reach("implementing");
    let r = drive(state, [ev.conversation("coder:2", "2b6a4c8e-1111-4222-8333-944455556666"), ev.done(1)]);
    expect(liveAgents(r.state)).toEqual(["coder:2"]);
    r = apply(r.state, ev.cancel());
    const back = apply(prepareResume(r.state, FACTS, ev.start().at), ev.resume());
    expect(launched(back.effects)).toEqual(["coder:2"]);
    expect(ofType(back.effects, "launch_agent")[0]).toMatchObject({ conversation: "2b6a4c8e-1111-4222-8333-944455556666" });
    expect(back.state.agents!.coder).toBeUndefined();
    expect(back.state.agents!["coder:2"]).toMatchObject({ status: "starting" });
    expect(back.state.implementation_active_plan_ids).toEqual(["2"]);
    const next = apply(back.state, ev.done(2));
    expect(killed(next.effects)).toContain("coder:2");
    expect(next.state.implementation_completed_group_ids).toEqual(["g1"]);
  });

  test("watchdog.restarts = 0: the first crash fails the run", () => {
    const { state, ev } = reach("architecting");
    const r = apply(state, ev.paneExited("architect", "exit 1"), settings({ restarts: 0 }));
    expect(r.state).toMatchObject({
      phase: "failed",
      interruption_category: "failed",
      interruption_cause: "the [architect] architecture pane exited (exit 1) while the run was architecting",
    });
  });

  test("a failed run resumes in the earliest phase whose artifact is missing", () => {
    const { state, ev } = reach("implementing");
    const failed = apply(state, ev.timeout()).state;
    expect(failed).toMatchObject({
      phase: "failed",
      last_event: "run_failed",
      interruption_category: "failed",
      interruption_cause: "architect idle for 30 minutes",
    });
    expect(inferResumePhase(failed, { ...FACTS, hasArchitecture: false })).toBe("architecting");
    expect(inferResumePhase(failed, { ...FACTS, hasExecutionPlan: false })).toBe("planning");
  });

  test("cancel, timeout, effect_failed and commit_failed all end in failed with their cause and exit code", () => {
    const { state, ev } = reach("completing");
    const cases = [
      [ev.cancel("the orchestrator received SIGTERM"), "run_canceled", 130, "the orchestrator received SIGTERM"],
      [ev.timeout(), "run_failed", 1, "architect idle for 30 minutes"],
      [ev.effectFailed(), "run_failed", 1, "launch_agent failed: tmux split-window: no space for new pane"],
    ] as const;
    for (const [event, last, code, cause] of cases) {
      const r = apply(state, event);
      expect(r.state).toMatchObject({ phase: "failed", last_event: last, interruption_cause: cause });
      expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code, cleanup: false }]);
    }
    const approved = apply(state, ev.approve()).state;
    const r = apply(approved, ev.commitFailed("pre-commit hook\nrejected the change"));
    expect(r.state).toMatchObject({
      phase: "failed",
      last_event: "run_failed",
      interruption_cause: "commit failed: pre-commit hook rejected the change",
      completion_error: "pre-commit hook\nrejected the change",
    });
    expect(r.state.approved_at).toBeUndefined();
    expect(ofType(r.effects, "finish")).toEqual([{ type: "finish", code: 1, cleanup: false }]);
    expect(inferResumePhase(r.state, FACTS)).toBe("completing");
  });

  test("agent_stuck marks the agent with the reason; agent_active brings it back to working", () => {
    const { state, ev } = reach("reviewing");
    let r = apply(state, ev.stuck("reviewer_quality"));
    expect(r.state.agents!.reviewer_quality).toMatchObject({ status: "stuck", note: "Enter not accepted after 3 tries", since: r.state.updated_at });
    expect(r.state.phase).toBe("reviewing");
    expect(r.effects).toEqual([
      {
        type: "log",
        note: "stuck",
        agent: "reviewer_quality",
        data: { reason: "Enter not accepted after 3 tries" },
        message: "reviewer_quality is stuck: Enter not accepted after 3 tries",
      },
      { type: "attention", agent: "reviewer_quality", text: "[reviewer] quality · round 1 is stuck: Enter not accepted after 3 tries" },
    ]);
    r = apply(r.state, ev.active("reviewer_quality"));
    expect(r.state.agents!.reviewer_quality!.status).toBe("working");
    expect(r.state.agents!.reviewer_quality!.note).toBeUndefined();
  });
});

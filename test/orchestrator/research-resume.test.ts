import { describe, expect, test } from "bun:test";
import { prepareResume } from "../../src/orchestrator/resume.ts";
import { apply, drive, launched, liveAgents, ofType, templates, written } from "./fixtures.ts";
import { reach } from "./reach.ts";

const FACTS = { pmDone: true, hasArchitecture: false, hasExecutionPlan: false, hasDesign: false };
const AT = "2030-01-01T00:00:00.000Z";

describe("research in flight when the orchestrator stopped", () => {
  test("a resumed architect phase starts the researchers of the unfinished topics again, not of the finished ones", () => {
    const { state, ev } = reach("architecting");
    const before = drive(state, [ev.dispatch("limits"), ev.dispatch("headers", "web"), ev.dispatch("caches"), ev.researched("caches")]).state;
    expect(before.research_tasks).toEqual({ limits: "dispatched", caches: "done" });
    const resumed = prepareResume(before, FACTS, AT);
    expect(liveAgents(resumed)).toEqual([]);

    const r = apply(resumed, ev.resume());
    expect(launched(r.effects)).toEqual(["architect", "code-researcher:limits", "web-researcher:headers"]);
    expect(templates(r.effects)).toEqual([
      "02_architecting/architect_prompt.md<-architect",
      "03_research/code-limits/prompt.md<-code-researcher",
      "03_research/web-headers/prompt.md<-web-researcher",
    ]);
    expect(ofType(r.effects, "launch_agent").find((e) => e.agent === "code-researcher:limits")!.batch_prompt).toBe("03_research/code-limits/prompt.md");
    expect(written(r.effects)).toEqual([]); // request.md was written at dispatch and is still there
    expect(r.state.research_tasks).toEqual({ limits: "dispatched", caches: "done" });
    expect(liveAgents(r.state)).toEqual(["architect", "code-researcher:limits", "web-researcher:headers"]);

    // the re-prompted architect dispatches again: a repeat now; the researcher's done reaches it
    expect(launched(apply(r.state, ev.dispatch("limits")).effects)).toEqual([]);
    const done = apply(r.state, ev.researched("limits"));
    expect(ofType(done.effects, "notify_agent").map((n) => n.agent)).toEqual(["architect"]);
    expect(done.state.research_tasks).toEqual({ limits: "done", caches: "done" });
  });

  test("the planner and the product manager relaunch their research too; other phases and fresh entries do not", () => {
    for (const [phase, owner] of [
      ["planning", "planner"],
      ["product_management", "product-manager"],
    ] as const) {
      const { state, ev } = reach(phase);
      const before = apply(state, ev.dispatch("limits")).state;
      const r = apply(prepareResume(before, FACTS, AT), ev.resume());
      expect(r.state.phase).toBe(phase);
      expect(launched(r.effects)).toEqual([owner, "code-researcher:limits"]);
      // a retry of the entry (not a resume) keeps the live researcher and starts no second one
      expect(launched(apply(before, ev.resume()).effects)).toEqual([owner]);
    }
  });

  test("a dispatch of a topic whose researcher is gone starts it again (the request is rewritten)", () => {
    const { state, ev } = reach("architecting");
    const before = apply(state, ev.dispatch("limits")).state;
    const gone = {
      ...before,
      agents: { ...before.agents!, "code-researcher:limits": { ...before.agents!["code-researcher:limits"]!, status: "exited" as const } },
    };
    const r = apply(gone, ev.dispatch("limits"));
    expect(written(r.effects)).toEqual(["03_research/code-limits/request.md"]);
    expect(launched(r.effects)).toEqual(["code-researcher:limits"]);
    expect(r.state.research_tasks).toEqual({ limits: "dispatched" });
  });
});

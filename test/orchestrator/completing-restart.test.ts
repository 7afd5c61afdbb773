import { expect, test } from "bun:test";
import { prepareResume } from "../../src/orchestrator/resume.ts";
import { apply, ofType } from "./fixtures.ts";
import { reach } from "./reach.ts";

const facts = { pmDone: false, hasArchitecture: true, hasExecutionPlan: true, hasDesign: false };

test("approved, then the orchestrator died before `committed` was recorded: resuming commits again with the same approval", () => {
  const { state, ev, s } = reach("completing");
  const approved = apply(state, ev.approve("feat: keep this message"), s);
  expect(ofType(approved.effects, "commit")).toHaveLength(1);
  expect(approved.state.approval).toEqual({ action: "approve", exclude_files: [], commit_message: "feat: keep this message" });
  // restart: the committed event never arrived
  const resumed = prepareResume(approved.state, facts, "2024-01-02T00:00:00.000Z");
  expect(resumed.phase).toBe("completing");
  const r = apply(resumed, ev.resume(), s);
  const commits = ofType(r.effects, "commit");
  expect(commits).toHaveLength(1);
  expect(commits[0]!.approval.commit_message).toBe("feat: keep this message");
  expect(ofType(r.effects, "show_completion_panel")).toHaveLength(0);
  // and the commit's result then finishes the run
  expect(apply(r.state, ev.committed(), s).state.phase).toBe("done");
});

test("a failed commit forgets the approval, so a resume waits for a decision again", () => {
  const { state, ev, s } = reach("completing");
  const approved = apply(state, ev.approve(), s);
  const failed = apply(approved.state, { type: "commit_failed", at: "2024-01-02T00:00:00.000Z", error: "author missing" }, s);
  expect(failed.state.phase).toBe("failed");
  expect(failed.state.approval).toBeUndefined();
  const r = apply(prepareResume(failed.state, facts, "2024-01-03T00:00:00.000Z"), ev.resume(), s);
  expect(r.state.phase).toBe("completing");
  expect(ofType(r.effects, "commit")).toHaveLength(0);
});

test("every wait for a decision is counted, so a follower polling state sees a wait decided between two polls", () => {
  const { state, ev, s } = reach("completing");
  expect(state).toMatchObject({ awaiting_decision: true, decision_waits: 1 });
  const failed = apply(state, { type: "commit_failed", at: "2024-01-02T00:00:00.000Z", error: "x" }, s).state;
  const again = apply(prepareResume(failed, facts, "2024-01-03T00:00:00.000Z"), ev.resume(), s).state;
  expect(again).toMatchObject({ awaiting_decision: true, decision_waits: 2 });
  expect(apply(again, ev.approve(), s).state).toMatchObject({ awaiting_decision: undefined, decision_waits: 2 });
});

test("#31: a failed commit's cause says 'commit failed' once and keeps the system's reason (ENOSPC)", () => {
  const { state, ev, s } = reach("completing");
  const approved = apply(state, ev.approve(), s);
  const error = "commit failed: ENOSPC: no space left on device, write";
  const failed = apply(approved.state, { type: "commit_failed", at: "2024-01-02T00:00:00.000Z", error }, s).state;
  expect(failed.interruption_cause).toBe(error);
  const plain = apply(apply(state, ev.approve(), s).state, { type: "commit_failed", at: "2024-01-02T00:00:00.000Z", error: "author missing" }, s).state;
  expect(plain.interruption_cause).toBe("commit failed: author missing");
});

import { doneStatusRefusal } from "../../schema/artifacts/done.ts";
import type { EventOf } from "../../schema/events.ts";
import type { ExecutionGroup } from "../../schema/state.ts";
import { parallelCoderKey } from "../../schema/catalog.ts";
import { F, auditLog, coderPrompt, doneArtifact, doneMarker } from "../../protocol/paths.ts";
import type { Step } from "../step.ts";
import type { PhaseHandler } from "../types.ts";
import { ranInRound, startChecks } from "../checks.ts";

export const CODER = "coder";
const isCoder = (_k: string, a: { role: string }) => a.role === "coder";

/** Moves that bring a new plan (or its design): the implementation starts over. */
const FRESH_EVENTS = new Set(["plan_written", "design_written", "changes_requested"]);

function groups(step: Step): ExecutionGroup[] {
  return step.state.execution_groups ?? [];
}

function pendingIn(step: Step, g: ExecutionGroup) {
  const done = new Set(step.state.completed_subplans);
  return g.plans.filter((p) => !done.has(String(p.index)));
}

/** `coderDone`: a coder's submit ended it (its after_coder checks run in the same batch). */
function finish(step: Step, coderDone = false): void {
  step.killWhere(isCoder);
  if (!ranInRound(step.state, "after_implementation", step.state.review_iteration)) startChecks(step, "after_implementation", coderDone ? ["after_coder"] : []);
  step.set({ implementation_active_plan_ids: [], implementation_group_index: groups(step).length });
  step.moveTo("reviewing", "implementation_completed");
}

/** Dispatch the first group that still has pending plans, or move on to review. */
function dispatchNextGroup(step: Step, coderDone = false): void {
  const all = groups(step);
  const i = all.findIndex((g) => pendingIn(step, g).length > 0);
  if (i < 0) return finish(step, coderDone);
  const g = all[i]!;
  const pending = pendingIn(step, g);
  step.set({
    implementation_group_index: i + 1,
    implementation_group_mode: g.mode,
    implementation_completed_group_ids: all.slice(0, i).map((x) => x.group_id),
  });
  // a parallel group resumed with one plan left keeps that plan's coder (its key, its conversation)
  const resumedOne = pending.length === 1 && !!step.agents()[parallelCoderKey(pending[0]!.index)];
  if (g.mode === "parallel" && (pending.length > 1 || resumedOne)) {
    const keys = pending.map((p) => parallelCoderKey(p.index));
    pending.forEach((p, n) => step.launch(keys[n]!, "coder", `[coder] ${p.name}`, String(p.index)));
    step.show(keys);
    pending.forEach((p, n) => step.prompt(keys[n]!, coderPrompt(p.index), "coder", { plan_index: String(p.index) }));
    step.set({ implementation_active_plan_ids: pending.map((p) => String(p.index)) });
    return;
  }
  // Serial: one coder pane works through the group's plans in order, in one conversation.
  const first = pending[0]!;
  if (!step.liveAgents((k) => k === CODER).length) step.launch(CODER, "coder", `[coder] ${first.name}`, String(first.index));
  else step.setAgent(CODER, { status: "working", label: `[coder] ${first.name}`, task: String(first.index) });
  step.show([CODER]);
  step.prompt(CODER, coderPrompt(first.index), "coder", { plan_index: String(first.index) });
  step.set({ implementation_active_plan_ids: [String(first.index)] });
}

/**
 * The verification gate's status rule, again when the line is applied (the MCP tool refused it
 * already; a line the server did not check must not slip through): a FAILED artifact, or a
 * PARTIAL one the plan does not allow, is not recorded, and the coder is told what to do.
 */
export function refusedStatus(step: Step, e: EventOf<"coder_done">, o: { allowPartial: boolean; agent: string; fixRound?: boolean }): boolean {
  const why = e.artifact && doneStatusRefusal(e.artifact.status, { subplanIndex: e.subplan_index, ...o });
  if (!why) return false;
  const text = `submit_done for plan ${e.subplan_index} was not accepted: ${doneArtifact(e.subplan_index)} status ${why}`;
  step.log("submit_refused", text, { agent: o.agent, data: { plan: e.subplan_index, reason: why } });
  if (step.liveAgents((k) => k === o.agent).length) step.emit({ type: "notify_agent", agent: o.agent, text });
  return true;
}

/** The orchestrator's bookkeeping for a verified submit_done: marker, task check-offs, audit line. */
export function recordDone(step: Step, e: EventOf<"coder_done">): void {
  const a = e.artifact;
  const audit = {
    subplan_index: e.subplan_index,
    at: e.at,
    status: a?.status ?? "SUCCESS",
    tasks_completed: a?.tasks_completed.length ?? 0,
    files_created: a?.files_created ?? [],
    files_modified: a?.files_modified ?? [],
    tests: a?.tests ?? { files: 0, cases: 0 },
  };
  step.emit({ type: "write_file", path: doneMarker(e.subplan_index), content: JSON.stringify(audit, null, 2) + "\n" });
  if (a && a.tasks_completed.length) step.emit({ type: "check_off_tasks", plan_index: e.subplan_index, tasks: a.tasks_completed });
  step.emit({
    type: "append_file",
    path: auditLog,
    content: `${e.at} plan ${e.subplan_index} ${audit.status}: ${audit.tasks_completed} tasks, ${audit.files_created.length} created, ${audit.files_modified.length} modified, tests ${audit.tests.files} files/${audit.tests.cases} cases`,
  });
  const completed = step.state.completed_subplans.includes(String(e.subplan_index))
    ? step.state.completed_subplans
    : [...step.state.completed_subplans, String(e.subplan_index)];
  step.set({
    completed_subplans: completed,
    implementation_active_plan_ids: step.state.implementation_active_plan_ids.filter((x) => x !== String(e.subplan_index)),
  });
}

export const implementing: PhaseHandler = {
  enter(step, entry) {
    if (!groups(step).length) {
      step.log("bug", "implementing entered without an execution plan", { data: { error: "no execution plan" } });
      step.fail("no execution plan: plan.yaml was never accepted");
      return;
    }
    const fresh = entry.reason !== "resumed" && FRESH_EVENTS.has(entry.via);
    if (fresh) {
      step.emit({ type: "delete_matching", dir: "06_implementation", pattern: "^done_\\d+(\\.json)?$" });
      step.set({ completed_subplans: [], implementation_completed_group_ids: [] });
    }
    step.killWhere(isCoder);
    const single = fresh ? step.settings.single_coder : (step.state.implementation_single_coder ?? step.settings.single_coder);
    step.set({ implementation_single_coder: single, implementation_group_total: groups(step).length });
    if (!single) return dispatchNextGroup(step);
    const pending = groups(step).flatMap((g) => pendingIn(step, g));
    if (!pending.length) return finish(step);
    const plan_indices = pending.map((p) => p.index).join(",");
    step.solo(CODER, "coder", "[coder] implementation", { path: F.coderWholePrompt, template: "coder-whole", vars: { plan_indices } }, "whole");
    step.set({ implementation_group_index: 1, implementation_group_mode: null, implementation_active_plan_ids: pending.map((p) => String(p.index)) });
  },

  on(step, event) {
    if (event.type !== "coder_done") return false;
    const id = String(event.subplan_index);
    if (!step.state.implementation_active_plan_ids.includes(id)) {
      step.log("ignored", `submit_done for plan ${id} ignored: active plans are [${step.state.implementation_active_plan_ids.join(", ")}]`, {
        data: { event: "coder_done", plan: id },
      });
      return true;
    }
    const entry = groups(step)
      .flatMap((g) => g.plans)
      .find((p) => p.index === event.subplan_index);
    const agent = step.agents()[parallelCoderKey(event.subplan_index)] ? parallelCoderKey(event.subplan_index) : CODER;
    if (refusedStatus(step, event, { allowPartial: entry?.allow_partial === true, agent })) return true;
    recordDone(step, event);
    const last = !groups(step).some((g) => pendingIn(step, g).length);
    // a coder that was not the last: its after_coder checks now (the last one's run with the implementation's)
    if (!last) startChecks(step, "after_coder");
    if (step.state.implementation_single_coder) {
      if (!step.state.implementation_active_plan_ids.length) finish(step, true);
      return true;
    }
    const g = groups(step)[step.state.implementation_group_index - 1]!;
    const pending = pendingIn(step, g);
    if (step.agents()[parallelCoderKey(event.subplan_index)]) step.kill(parallelCoderKey(event.subplan_index));
    if (step.state.implementation_active_plan_ids.length) {
      step.show(step.liveAgents(isCoder));
      return true;
    }
    if (pending.length) {
      dispatchNextGroup(step, true);
      return true;
    }
    step.set({ implementation_completed_group_ids: [...step.state.implementation_completed_group_ids, g.group_id] });
    step.killWhere(isCoder);
    dispatchNextGroup(step, true);
    return true;
  },
};

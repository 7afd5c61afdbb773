import type { CheckOutcome, CheckRun } from "../schema/check-runs.ts";
import type { CheckWhen } from "../schema/checks.ts";
import type { EventOf } from "../schema/events.ts";
import type { State } from "../schema/state.ts";
import type { Step } from "./step.ts";

/** The configured checks that run at any of `whens`, in config order. */
export const checkNames = (step: Step, whens: readonly CheckWhen[]): string[] =>
  Object.entries(step.settings.checks ?? {})
    .filter(([, c]) => c.when.some((w) => whens.includes(w)))
    .map(([n]) => n);

/**
 * Start a batch of the checks that run at `when` (and at the moments in `also` that fall on the
 * same instant: the last coder's submit is also the end of the implementation), for the current
 * review round; false when none do.
 */
export function startChecks(step: Step, when: CheckWhen, also: readonly CheckWhen[] = []): boolean {
  const names = checkNames(step, [when, ...also]);
  if (!names.length) return false;
  const id = (step.state.check_runs_started ?? 0) + 1;
  const round = step.state.review_iteration;
  const run: CheckRun = { id, when, round, names, started_at: step.at, results: {} };
  step.set({ checks: [...(step.state.checks ?? []), run], check_runs_started: id });
  step.emit({ type: "run_checks", run: id, when, round, names });
  return true;
}

/** Checks of a batch that have no outcome yet. */
const left = (r: CheckRun) => r.names.filter((n) => !r.results[n]);

/** Every batch started has every outcome: nothing is running or still to run. */
export const checksSettled = (state: State): boolean => (state.checks ?? []).every((r) => !left(r).length);

/**
 * A resumed orchestrator runs again what had not finished when the last one stopped (a check
 * cut off mid-run has no outcome, so it is never counted twice).
 */
export function resumeChecks(step: Step): void {
  const runs = step.state.checks ?? [];
  const unfinished = runs.filter((r) => left(r).length);
  if (!unfinished.length) return;
  step.set({ checks: runs.map((r) => (left(r).length ? { ...r, running: undefined } : r)) });
  for (const r of unfinished) {
    step.log("checks", `running again what the last orchestrator left unfinished: ${left(r).join(", ")} (batch ${r.id}, ${r.when})`, {
      data: { run: r.id, names: left(r) },
    });
    step.emit({ type: "run_checks", run: r.id, when: r.when, round: r.round, names: left(r) });
  }
}

/** An outcome a later run of the same check superseded keeps its counts, not its lines. */
const superseded = (o: CheckOutcome): CheckOutcome => {
  const { findings: _f, tail: _t, ...rest } = o;
  return rest;
};

/**
 * Record a check event. Returns true when a check finished and counted: an event for a batch the
 * run no longer has, a name it did not start, or a check that finished already is ignored.
 */
export function recordCheck(step: Step, e: EventOf<"check_started"> | EventOf<"check_finished">): boolean {
  const runs = step.state.checks ?? [];
  const run = runs.find((r) => r.id === e.run);
  if (!run || !run.names.includes(e.name) || run.results[e.name]) {
    step.log(
      "ignored",
      `${e.type} of check ${e.name} (batch ${e.run}) ignored: ${!run ? "no such batch in this run" : run.results[e.name] ? "it finished already" : "not in that batch"}`,
      { data: { event: e.type, run: e.run, name: e.name } },
    );
    return false;
  }
  if (e.type === "check_started") {
    step.set({ checks: runs.map((r) => (r === run ? { ...r, running: { ...r.running, [e.name]: e.at } } : r)) });
    return false;
  }
  const { [e.name]: _done, ...running } = run.running ?? {};
  step.set({
    checks: runs.map((r) => {
      if (r === run) return { ...r, running: Object.keys(running).length ? running : undefined, results: { ...r.results, [e.name]: e.result } };
      const old = r.results[e.name];
      return old && (old.findings || old.tail) ? { ...r, results: { ...r.results, [e.name]: superseded(old) } } : r;
    }),
  });
  const o = e.result;
  const what = o.status === "passed" ? "passed" : `${o.status}${o.pre_existing ? " (pre-existing on the base)" : ""}${o.required ? "" : " (advisory)"}`;
  step.log("checks", `check ${e.name} ${what} in ${Math.round(o.duration_ms / 100) / 10} s (batch ${e.run})`, {
    data: { run: e.run, name: e.name, status: o.status, pre_existing: o.pre_existing === true },
  });
  return true;
}

/** The latest outcome of each check in a review round (later batches replace earlier ones). */
export function roundOutcomes(state: State, round: number): Map<string, CheckOutcome & { run: number }> {
  const out = new Map<string, CheckOutcome & { run: number }>();
  for (const r of state.checks ?? []) {
    if (r.round !== round) continue;
    for (const [name, o] of Object.entries(r.results)) out.set(name, { ...o, run: r.id });
  }
  return out;
}

/** A required check that did not pass and did not fail that way on the base already: it blocks. */
export const blocks = (o: CheckOutcome) => o.required && o.status !== "passed" && o.pre_existing !== true;

/** The checks of a round that block the commit, by name. */
export function blockingChecks(state: State, round: number): string[] {
  return [...roundOutcomes(state, round)].filter(([, o]) => blocks(o)).map(([n]) => n);
}

/** Whether a batch of `when` ran in this round already. */
export const ranInRound = (state: State, when: CheckWhen, round: number): boolean => (state.checks ?? []).some((r) => r.when === when && r.round === round);

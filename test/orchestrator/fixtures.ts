import { expect } from "bun:test";
import { transition } from "../../src/orchestrator/transition.ts";
import { initialState } from "../../src/session/initial-state.ts";
import type { Settings } from "../../src/orchestrator/types.ts";
import { ROLES, WORKFLOW_EVENTS, type ReviewerRole } from "../../src/schema/catalog.ts";
import type { Effect } from "../../src/schema/effects.ts";
import type { Event, EventOf } from "../../src/schema/events.ts";
import { State } from "../../src/schema/state.ts";
import type { Plan } from "../../src/schema/artifacts/plan.ts";
import type { Review } from "../../src/schema/artifacts/review.ts";
import type { CheckOutcome } from "../../src/schema/check-runs.ts";

export const FEATURE_DIR = "/proj/.agentmux/.sessions/20240101-000000-rate-limit";

export function settings(patch: Partial<Settings> = {}): Settings {
  const role_agents = Object.fromEntries(ROLES.map((r) => [r, { provider: "sim", model: null }]));
  return { max_review_iterations: 3, skip_final_approval: false, commit_on_loop_cap: false, single_coder: false, keep_session: false, role_agents, ...patch };
}

/** Strictly increasing ISO timestamps, one per event: `updated_at` proves which event ran last. */
export function clock(start = Date.UTC(2024, 0, 1)): () => string {
  let t = start;
  return () => new Date((t += 1000)).toISOString();
}

export function freshState(o: { productManager?: boolean; featureDir?: string } = {}): State {
  return initialState({
    featureDir: o.featureDir ?? FEATURE_DIR,
    sessionName: "agentmux-rate-limit",
    featureName: "rate-limit",
    projectDir: "/proj",
    productManager: o.productManager ?? false,
    at: "2024-01-01T00:00:00.000Z",
  });
}

export type GroupShape = { mode: "serial" | "parallel"; plans: number[] };

/** A valid plan.yaml v2 whose groups have the given shapes (plan indices must run 1..N). */
export function makePlan(groups: GroupShape[], needsDesign = false): Plan {
  const indices = groups.flatMap((g) => g.plans).sort((a, b) => a - b);
  return {
    version: 2,
    plan_overview: "Add a token bucket limiter and wire it into the HTTP server.",
    needs_design: needsDesign,
    needs_docs: false,
    doc_files: [],
    groups: groups.map((g, i) => ({ group_id: `g${i + 1}`, mode: g.mode, plans: g.plans.map((p) => ({ index: p, name: `part ${p}` })) })),
    subplans: indices.map((n) => ({
      index: n,
      title: `Part ${n}`,
      scope: `scope of part ${n}`,
      owned_files: [`src/part${n}.ts`],
      dependencies: "none",
      implementation_approach: `write part ${n}`,
      acceptance_criteria: [`part ${n} works`],
      tasks: [`write src/part${n}.ts`, `test part ${n}`],
    })),
  };
}

export function makeReview(verdict: "pass" | "fail", role: string, commit?: string): Review {
  return {
    verdict,
    summary: `${role} says ${verdict}`,
    findings: verdict === "fail" ? [{ issue: `${role} found a bug`, recommendation: "fix it", location: "src/part1.ts:3", severity: "high" }] : [],
    ...(commit ? { commit_message: commit } : {}),
  };
}

/** Event builders; each takes its timestamp from the clock. */
export function events(now: () => string) {
  return {
    start: (): Event => ({ type: "start", at: now() }),
    resume: (): Event => ({ type: "resume", at: now() }),
    pm: (): Event => ({ type: "pm_done", at: now() }),
    arch: (reviewers?: ReviewerRole[]): Event => ({ type: "architecture_submitted", at: now(), ...(reviewers ? { reviewers } : {}) }),
    plan: (plan: Plan): Event => ({ type: "plan_submitted", at: now(), plan }),
    design: (): Event => ({ type: "design_written", at: now() }),
    done: (n: number, tasks: string[] = [`write src/part${n}.ts`]): Event => ({
      type: "coder_done",
      at: now(),
      subplan_index: n,
      artifact: { status: "SUCCESS", tasks_completed: tasks, files_created: [`src/part${n}.ts`], files_modified: [], tests: { files: 1, cases: 2 } },
    }),
    review: (role: ReviewerRole, verdict: "pass" | "fail", commit?: string): Event => ({
      type: "review_submitted",
      at: now(),
      role,
      review: makeReview(verdict, role, commit),
    }),
    summary: (): Event => ({ type: "summary_written", at: now() }),
    approve: (commit_message?: string): Event => ({
      type: "approval_written",
      at: now(),
      approval: { action: "approve", exclude_files: [], ...(commit_message ? { commit_message } : {}) },
    }),
    changes: (text = "Make the limit configurable."): Event => ({ type: "changes_written", at: now(), text }),
    panel: (): Event => ({ type: "panel_requested", at: now() }),
    committed: (): Event => ({ type: "committed", at: now(), hash: "abc1234", branch: "feature/rate-limit", pr_url: null }),
    commitFailed: (error = "nothing to commit"): Event => ({ type: "commit_failed", at: now(), error }),
    dispatch: (topic: string, research_type: "code" | "web" = "code"): EventOf<"research_dispatched"> => ({
      type: "research_dispatched",
      at: now(),
      research_type,
      topic,
      context: `why ${topic}`,
      questions: [`what about ${topic}?`],
      scope_hints: ["src/"],
    }),
    researched: (topic: string, research_type: "code" | "web" = "code"): Event => ({ type: "research_done", at: now(), research_type, topic }),
    paneExited: (agent: string, detail?: string): Event => ({ type: "pane_exited", at: now(), agent, ...(detail ? { detail } : {}) }),
    stuck: (agent: string): Event => ({ type: "agent_stuck", at: now(), agent, reason: "Enter not accepted after 3 tries" }),
    active: (agent: string): Event => ({ type: "agent_active", at: now(), agent }),
    turnEnded: (agent: string, question?: string): Event => ({ type: "agent_turn_ended", at: now(), agent, ...(question ? { question } : {}) }),
    dialog: (agent: string, kind: "question" | "permission" = "permission", text = "Do you want to proceed?"): Event => ({
      type: "agent_dialog",
      at: now(),
      agent,
      kind,
      text,
    }),
    limited: (agent: string, reset_at: string | null = null, text = "usage limit reached"): Event => ({
      type: "agent_rate_limited",
      at: now(),
      agent,
      text,
      reset_at,
    }),
    limitReset: (agent: string): Event => ({ type: "limit_reset", at: now(), agent }),
    toolCall: (agent: string, ok = false, tool = "submit_plan", message = "submit_plan was refused: plan.yaml has a problem"): Event => ({
      type: "agent_tool_call",
      at: now(),
      agent,
      tool,
      ok,
      ...(ok ? {} : { message }),
    }),
    conversation: (agent: string, id = "0b6a4c8e-1111-4222-8333-944455556666"): Event => ({ type: "conversation_captured", at: now(), agent, id }),
    goOn: (): Event => ({ type: "budget_go_on", at: now() }),
    answer: (agent: string, question_at: string, text = "English only, please."): Event => ({ type: "agent_answer", at: now(), agent, question_at, text }),
    usage: (agent: string, cost_usd: number | null = 0.5, conversation = "0b6a4c8e-1111-4222-8333-944455556666"): Event => ({
      type: "usage_read",
      at: now(),
      conversation,
      record: {
        agent,
        provider: "claude",
        model: "claude-sonnet-4-5",
        source: "claude",
        input: 1000,
        cached: 20000,
        cache_write: 3000,
        output: 2000,
        cost_usd,
      },
    }),
    cancel: (reason = "Ctrl-C in the launcher"): Event => ({ type: "cancel", at: now(), reason }),
    timeout: (reason = "architect idle for 30 minutes"): Event => ({ type: "timeout", at: now(), reason }),
    effectFailed: (): Event => ({ type: "effect_failed", at: now(), effect: "launch_agent", error: "tmux split-window: no space for new pane" }),
    runLost: (): Event => ({ type: "run_lost", at: now(), reason: "the tmux server (socket agentmux) is gone" }),
    rejected: (): Event => ({ type: "tool_rejected", at: now(), tool: "submit_plan", reason: "plan.yaml: bad" }),
    checkStarted: (run: number, name: string): Event => ({ type: "check_started", at: now(), run, name }),
    // as the checks service does: the check finishes, then its event is made
    checkFinished: (run: number, name: string, patch: Partial<CheckOutcome> = {}, finished = now()): Event => ({
      type: "check_finished",
      at: now(),
      run,
      name,
      result: {
        status: "passed",
        command: `npm run ${name}`,
        required: true,
        exit_code: 0,
        duration_ms: 1200,
        failures: 0,
        log: `06_checks/run_${run}/${name}.log`,
        file: `06_checks/run_${run}/${name}.json`,
        finished_at: finished,
        ...patch,
      },
    }),
  };
}
export type Events = ReturnType<typeof events>;

/** Apply one event and check the invariants every transition keeps. */
export function apply(state: State, event: Event, s: Settings = settings()): { state: State; effects: Effect[] } {
  const r = transition(state, event, s);
  expect(Object.keys(WORKFLOW_EVENTS)).toContain(r.state.last_event);
  expect(() => State.parse(r.state)).not.toThrow();
  for (const h of r.state.history ?? []) expect(Object.keys(WORKFLOW_EVENTS)).toContain(h.event);
  return r;
}

/** Apply events in order; returns the final state and every effect, in order. */
export function drive(state: State, evs: Event[], s: Settings = settings()): { state: State; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const e of evs) {
    const r = apply(state, e, s);
    state = r.state;
    effects.push(...r.effects);
  }
  return { state, effects };
}

export const ofType = <T extends Effect["type"]>(effects: Effect[], type: T) => effects.filter((e): e is Extract<Effect, { type: T }> => e.type === type);
export const written = (effects: Effect[]) => ofType(effects, "write_file").map((e) => e.path);
export const launched = (effects: Effect[]) => ofType(effects, "launch_agent").map((e) => e.agent);
export const killed = (effects: Effect[]) => ofType(effects, "kill_agent").map((e) => e.agent);
export const prompts = (effects: Effect[]) => ofType(effects, "send_prompt").map((e) => `${e.agent}:${e.prompt}`);
export const templates = (effects: Effect[]) => ofType(effects, "write_prompt").map((e) => `${e.path}<-${e.template}`);
export const liveAgents = (s: State) =>
  Object.entries(s.agents ?? {})
    .filter(([, a]) => a.status !== "done" && a.status !== "exited")
    .map(([k]) => k)
    .sort();
/** The state without the fields every transition stamps. */
export const core = (s: State) => {
  const { updated_at: _a, updated_by: _b, ...rest } = s;
  return rest;
};

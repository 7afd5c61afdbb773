import { transition } from "../../src/orchestrator/transition.ts";
import type { Settings } from "../../src/orchestrator/types.ts";
import { REVIEWER_ROLES, type ReviewerRole } from "../../src/schema/catalog.ts";
import type { Event } from "../../src/schema/events.ts";
import type { State } from "../../src/schema/state.ts";
import { clock, events, freshState, makePlan, settings, type GroupShape } from "./fixtures.ts";

/** mulberry32: a small seeded PRNG, so every failing seed can be replayed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Rng = ReturnType<typeof prng>;

export type RandomRun = { seed: number; settings: Settings; initial: State; events: Event[] };

function randomPlanShape(rng: Rng): GroupShape[] {
  let n = 0;
  return Array.from({ length: rng.int(1, 4) }, () => ({
    mode: rng.chance(0.5) ? ("serial" as const) : ("parallel" as const),
    plans: Array.from({ length: rng.int(1, 3) }, () => ++n),
  }));
}

/**
 * A protocol-plausible run: a simulated world reacts to the state the orchestrator is in (the
 * agent of the phase finishes its work, reviewers answer in random order, parallel coders finish
 * in random order), with research detours, duplicates and out-of-phase tool events mixed in.
 */
export function randomRun(seed: number, maxEvents = 400): RandomRun {
  const rng = prng(seed);
  const s = settings({ max_review_iterations: rng.int(0, 3), skip_final_approval: rng.chance(0.5), single_coder: rng.chance(0.2) });
  // a run nobody approves commits at the review loop cap (else it fails there, #17.6): every
  // generated run still ends in done; the failing path has its own tests (scenarios.review)
  s.commit_on_loop_cap = s.skip_final_approval;
  const ev = events(clock(Date.UTC(2024, 0, 1) + seed * 1000));
  const initial = freshState({ productManager: rng.chance(0.3) });
  const out: Event[] = [];
  let state = initial;
  let changeRequests = rng.int(0, 1);
  const topics = ["limits", "buckets", "headers"];
  const push = (e: Event) => {
    out.push(e);
    state = transition(state, e, s).state;
  };
  const noise = (): Event => {
    const agents = Object.keys(state.agents ?? {});
    const role = rng.pick(REVIEWER_ROLES);
    return rng.pick([
      () => ev.pm(),
      () => ev.arch(["reviewer_expert"]),
      () => ev.plan(makePlan(randomPlanShape(rng))),
      () => ev.design(),
      () => ev.summary(),
      () => ev.done(rng.int(1, 6)),
      () => ev.review(role, rng.chance(0.5) ? "pass" : "fail"),
      () => ev.researched(rng.pick(topics), rng.chance(0.5) ? "code" : "web"),
      () => ev.dispatch(rng.pick(topics)),
      () => ev.rejected(),
      () => (agents.length ? ev.stuck(rng.pick(agents)) : ev.rejected()),
      () => (agents.length ? ev.active(rng.pick(agents)) : ev.rejected()),
    ])();
  };

  push(ev.start());
  while (state.phase !== "done" && out.length < maxEvents) {
    if (state.phase === "failed") throw new Error(`seed ${seed}: the run failed: ${state.interruption_cause}`);
    if (rng.chance(0.15)) {
      push(noise());
      continue;
    }
    switch (state.phase) {
      case "product_management":
      case "architecting":
      case "planning": {
        const pending = [
          ...Object.entries(state.research_tasks ?? {})
            .filter(([, v]) => v === "dispatched")
            .map(([t]) => ["code", t] as const),
          ...Object.entries(state.web_research_tasks ?? {})
            .filter(([, v]) => v === "dispatched")
            .map(([t]) => ["web", t] as const),
        ];
        if (pending.length && rng.chance(0.7)) {
          const [type, topic] = rng.pick(pending);
          push(ev.researched(topic, type));
        } else if (rng.chance(0.25)) push(ev.dispatch(rng.pick(topics), rng.chance(0.5) ? "code" : "web"));
        else if (state.phase === "product_management") push(ev.pm());
        else if (state.phase === "architecting") {
          const nominated = REVIEWER_ROLES.filter(() => rng.chance(0.5)) as ReviewerRole[];
          push(ev.arch(nominated.length || rng.chance(0.5) ? nominated : undefined));
        } else push(ev.plan(makePlan(randomPlanShape(rng), rng.chance(0.2))));
        break;
      }
      case "designing":
        push(ev.design());
        break;
      case "implementing":
      case "fixing": {
        const active = state.implementation_active_plan_ids;
        if (!active.length) throw new Error(`seed ${seed}: ${state.phase} with no active plan`);
        const n = Number(rng.pick(active));
        push(ev.done(n));
        if (rng.chance(0.2)) push(ev.done(n)); // duplicate submit_done
        break;
      }
      case "reviewing": {
        if (state.awaiting_summary) {
          push(ev.summary());
          break;
        }
        const pending = Object.entries(state.active_reviews ?? {})
          .filter(([, v]) => v === "pending")
          .map(([r]) => r as ReviewerRole);
        if (!pending.length) throw new Error(`seed ${seed}: reviewing with nobody pending`);
        const role = rng.pick(pending);
        push(ev.review(role, rng.chance(0.6) ? "pass" : "fail", rng.chance(0.5) ? `feat: seed ${seed}` : undefined));
        if (rng.chance(0.2)) push(ev.review(role, "fail")); // duplicate from a finished reviewer
        break;
      }
      case "completing":
        if (state.approved_at) push(ev.committed());
        else if (changeRequests > 0 && rng.chance(0.5)) {
          changeRequests--;
          push(ev.changes());
        } else push(ev.approve(rng.chance(0.5) ? "feat: approved" : undefined));
        break;
    }
  }
  return { seed, settings: s, initial, events: out };
}

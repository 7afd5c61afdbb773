import { join } from "node:path";
import { F } from "../protocol/paths.ts";
import type { RunEvent } from "../schema/run-api/event.ts";
import type { AgentSnapshot, RunSnapshot } from "../schema/run-api/snapshot.ts";

/**
 * What happened between two snapshots of a run, in order: phases entered, the decision the run
 * started to wait for, agents' changes, review verdicts, the budget, the commit, the pull
 * request, the end of a failed run. `prev` null: nothing was seen yet (everything in `next` is
 * new). Pure; a follower that polls sees every phase and every decision wait, even those that
 * came and went between two polls (the timeline and `decision_waits` only grow).
 */
export function events(prev: RunSnapshot | null, next: RunSnapshot): RunEvent[] {
  const out: RunEvent[] = [];
  // checks and phases in the order they happened (a replay from nothing has many of each); a check
  // that finished comes before the phase it moved the run to (a failing one starts the fix round)
  const checks = checkEvents(prev, next).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const fresh = next.timeline.slice(prev?.timeline.length ?? 0);
  // the verdicts come before the review outcome they made (review passed / fix needed), not after it
  const verdictsAt = verdictPlace(fresh);
  let verdictsOut = false;
  fresh.forEach((t, i) => {
    while (checks.length && Date.parse(checks[0]!.at) <= Date.parse(t.at)) out.push(checks.shift()!);
    if (i === verdictsAt) (out.push(...verdicts(prev, next)), (verdictsOut = true));
    out.push({ kind: "phase", phase: t.phase, event: t.event, at: t.at });
  });
  out.push(...checks);
  if (newDecisionWait(prev, next))
    out.push({ kind: "awaiting_decision", approval: join(next.dir, F.approval), changes: join(next.dir, F.changes), at: next.updated_at });
  const before = new Map([...(prev?.agents ?? []), ...(prev?.done_agents ?? [])].map((a) => [a.key, a]));
  for (const a of [...next.agents, ...next.done_agents]) out.push(...agentEvents(before.get(a.key), a));
  if (!verdictsOut) out.push(...verdicts(prev, next));
  const budgetPaused = (s: RunSnapshot | null) => s?.waiting_for.some((w) => w.kind === "budget") ?? false;
  // once when it is reached, and again only when it pauses the agents (letting them go on, or the end, says nothing new)
  if (next.budget_reached !== null && (next.budget_reached !== prev?.budget_reached || (budgetPaused(next) && !budgetPaused(prev)))) {
    out.push({ kind: "budget_reached", text: next.budget_reached, paused: budgetPaused(next), at: next.updated_at });
  }
  if (next.commit_hash && next.commit_hash !== prev?.commit_hash)
    out.push({ kind: "committed", commit: next.commit_hash, branch: next.branch, at: next.updated_at });
  if (next.pr_url && next.pr_url !== prev?.pr_url) out.push({ kind: "pull_request", url: next.pr_url, at: next.updated_at });
  if (next.phase === "failed" && prev?.phase !== "failed" && next.interruption) {
    out.push({
      kind: "interrupted",
      category: next.interruption.category,
      cause: next.interruption.cause,
      resume_command: next.resume_command,
      at: next.updated_at,
    });
  }
  return out;
}

/**
 * Where among new timeline entries the latest review round's verdicts belong: before the first
 * outcome of that round (an entry into reviewing that is not an outcome starts a round); -1 when
 * the round has no outcome among them yet (its verdicts come after the phases).
 */
function verdictPlace(fresh: readonly { phase: string; event: string }[]): number {
  let at = -1;
  fresh.forEach((t, i) => {
    const outcome = t.event === "review_passed" || t.event === "review_failed";
    if (!outcome && t.phase === "reviewing") at = -1;
    else if (outcome && at === -1) at = i;
  });
  return at;
}

/** The wait count catches a wait decided between two snapshots; the flag serves older sessions (no count). */
function newDecisionWait(prev: RunSnapshot | null, next: RunSnapshot): boolean {
  if (next.decision_waits !== null) return next.decision_waits > (prev?.decision_waits ?? 0);
  return next.awaiting_decision && !prev?.awaiting_decision;
}

/**
 * An agent's changes: its status (every change), and once each when it starts to need something
 * or recovers from a misbehaviour: stuck, a question, a usage limit, a reminder, a restart, a move
 * to a fallback provider, a question answered.
 */
function agentEvents(p: AgentSnapshot | undefined, a: AgentSnapshot): RunEvent[] {
  const out: RunEvent[] = [];
  const agent = a.key;
  const at = a.since;
  if (p?.status !== a.status) out.push({ kind: "agent_status", agent, label: a.label, status: a.status, from: p?.status ?? null, at });
  if (a.restarts > (p?.restarts ?? 0) && a.status === "starting") {
    out.push({ kind: "agent_restarted", agent, restarts: a.restarts, exit_status: a.exit_status, last_line: a.last_screen?.at(-1) ?? null, at });
  }
  if (p?.provider && a.provider && a.provider !== p.provider)
    out.push({ kind: "agent_fallback", agent, from: p.provider, to: a.provider, limit: a.limit?.text ?? null, at });
  if (a.question && a.question.at !== p?.question?.at && a.status !== "needs_input")
    out.push({ kind: "agent_question_answered", agent, question: a.question, answer: a.note, at });
  if (a.status === p?.status && a.idle_turns === p.idle_turns) return out;
  if (a.status === "stuck") out.push({ kind: "agent_stuck", agent, note: a.note ?? "", at });
  else if (a.status === "needs_input") out.push({ kind: "agent_needs_input", agent, question: a.question, at });
  else if (a.status === "rate_limited") out.push({ kind: "agent_rate_limited", agent, limit: a.limit, at });
  else if (a.status === "idle_without_submit") out.push({ kind: "agent_reminded", agent, reminders: a.idle_turns || 1, at });
  return out;
}

/**
 * A reviewer's verdict, once: results start empty each review round and a review's archive
 * (`file`) is named by its round, so a result not seen before is new.
 */
function verdicts(prev: RunSnapshot | null, next: RunSnapshot): RunEvent[] {
  return Object.entries(next.reviews)
    .filter(([role, r]) => {
      const p = prev?.reviews[role];
      return !p || p.verdict !== r.verdict || p.summary !== r.summary || p.file !== r.file;
    })
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reviewer, r]) => ({ kind: "review_verdict", reviewer, verdict: r.verdict, summary: r.summary, round: next.review_round, at: next.updated_at }));
}

/** Each check result the next snapshot has that the previous one had not (by batch and name). */
function checkEvents(prev: RunSnapshot | null, next: RunSnapshot): Extract<RunEvent, { kind: "check" }>[] {
  const key = (c: { run: number; name: string }) => `${c.run}\u0000${c.name}`;
  const seen = new Set((prev?.checks.results ?? []).filter((c) => c.finished_at).map(key));
  return next.checks.results
    .filter((c) => c.finished_at && !seen.has(key(c)) && c.state !== "queued" && c.state !== "running")
    .map((c) => ({
      kind: "check" as const,
      name: c.name,
      round: c.round,
      run: c.run,
      status: c.state as Exclude<typeof c.state, "queued" | "running">,
      required: c.required ?? true,
      pre_existing: c.pre_existing === true,
      blocking: c.blocking,
      duration_ms: c.duration_ms ?? 0,
      failures: c.failures ?? 0,
      log: c.log ?? "",
      at: c.finished_at!,
    }));
}

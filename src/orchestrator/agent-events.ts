import type { Event, EventOf } from "../schema/events.ts";
import type { AgentInfo, AgentLimit, AgentQuestion } from "../schema/state.ts";
import { F } from "../protocol/paths.ts";
import { ASKING_ROLES, isLive, owedSubmit } from "./owed.ts";
import { researcherCrashed } from "./research.ts";
import type { Step } from "./step.ts";

const clip = (s: string, n = 300) => s.replace(/\s+/g, " ").trim().slice(0, n);
const assumptionsFile = (step: Step) => `${step.state.feature_dir}/${F.assumptions}`;

/** What a headless run answers a question with (headless.questions = decide). */
export const decideText = (file: string) =>
  `Nobody can answer questions in this run (it is unattended). Decide yourself, write each assumption you make to ${file}, and continue your task.`;

/** What a headless run answers a permission dialog with, after dismissing it. */
export const deniedText = (file: string) =>
  `That action needs a permission nobody can give in this unattended run, so it was declined. Finish your task without it; if you cannot, write what you needed to ${file} and finish what you can.`;

/** Give the agent its current prompt again (after a restart or a move to a fallback provider). */
function rePrompt(step: Step, key: string): void {
  const a = step.agents()[key]!;
  if (!a.prompt) return;
  const p = a.prompt;
  step.emit(
    { type: "write_prompt", path: p.path, template: p.template, role: a.role, vars: p.vars, agent: key, interrupted: true },
    { type: "send_prompt", agent: key, prompt: p.path },
  );
}

/** A stuck agent: attended runs ask for a person; headless runs fail (nobody will come). */
export function markStuck(step: Step, key: string, reason: string): void {
  const a = step.agents()[key]!;
  step.setAgent(key, { status: "stuck", note: reason });
  step.log("stuck", `${key} is stuck: ${reason}`, { agent: key, data: { reason } });
  if (step.settings.headless) return step.fail(`the ${a.label} agent is stuck: ${reason}`);
  step.emit({ type: "attention", agent: key, text: `${a.label} is stuck: ${clip(reason, 200)}` });
}

/** A question or dialog: attended → needs_input and a call for attention; headless → the policy. */
function asks(step: Step, key: string, q: Omit<AgentQuestion, "at">, dialog: boolean): void {
  const a = step.agents()[key]!;
  const what = q.kind === "permission" ? "asks permission" : "asks";
  if (!step.settings.headless) {
    step.setAgent(key, { status: "needs_input", question: { ...q, text: clip(q.text, 500), at: step.at } });
    step.log("question", `${key} ${what}: ${clip(q.text)}`, { agent: key, data: { kind: q.kind, headless: false } });
    step.emit({ type: "attention", agent: key, text: `${a.label} ${what}: ${clip(q.text, 200)}` });
    return;
  }
  if ((step.settings.questions ?? "decide") === "fail") {
    return step.fail(`the ${a.label} agent ${what} in a headless run (headless.questions = fail): ${clip(q.text)}`);
  }
  const file = assumptionsFile(step);
  // recorded (status unchanged) so status and CI output can say what was asked and answered
  step.setAgent(key, { status: a.status, question: { ...q, text: clip(q.text, 500), at: step.at }, note: `answered by policy (headless.questions = decide)` });
  if (dialog) step.emit({ type: "dismiss_dialog", agent: key });
  step.emit({ type: "append_file", path: F.assumptions, content: `- ${step.at} ${a.label} ${what}: ${clip(q.text)} (unattended run: told to decide)` });
  step.emit({ type: "notify_agent", agent: key, text: q.kind === "permission" ? deniedText(file) : decideText(file) });
  step.log("question", `${key} ${what} in a headless run; answered by policy (headless.questions = decide)`, {
    agent: key,
    data: { kind: q.kind, headless: true },
  });
}

/**
 * The user answered an agent's question away from its pane (the web page): the answer is typed
 * into the pane as a prompt is, only while the agent still waits on that very question (a
 * dialog is answered in the pane, where its keys are). It goes back to work when its screen says so.
 */
function answered(step: Step, e: EventOf<"agent_answer">): void {
  const a = step.agents()[e.agent];
  const q = a?.question;
  if (!isLive(a) || a.status !== "needs_input" || q?.kind !== "question" || q.at !== e.question_at) {
    return step.log("ignored", `an answer for ${e.agent} ignored: it does not wait on that question now`, { agent: e.agent, data: { event: "agent_answer" } });
  }
  step.setAgent(e.agent, { status: "needs_input", note: "answered from the web page" });
  step.emit({ type: "notify_agent", agent: e.agent, text: e.text });
  step.log("question", `${e.agent}'s question answered from the web page: ${clip(e.text)}`, {
    agent: e.agent,
    data: { kind: q.kind, headless: false, answered: "web" },
  });
}

function turnEnded(step: Step, e: EventOf<"agent_turn_ended">): void {
  const a = step.agents()[e.agent];
  if (!isLive(a) || a.status === "needs_input" || a.status === "rate_limited" || a.status === "stuck") return;
  const owed = owedSubmit(step.state, e.agent);
  if (!owed) {
    if (a.status !== "idle") step.setAgent(e.agent, { status: "idle" });
    return;
  }
  if (!owed.tool && e.owed_file_written) {
    if (a.status !== "idle") step.setAgent(e.agent, { status: "idle" });
    return;
  }
  const mayAsk = ASKING_ROLES.includes(a.role);
  if (e.question && mayAsk) return asks(step, e.agent, { kind: "question", text: e.question }, false);
  const n = (a.idle_turns ?? 0) + 1;
  const limit = step.settings.nudges ?? 2;
  const what = owed.tool ? `calling ${owed.tool}` : `writing ${owed.file}`;
  if (n > limit)
    return markStuck(step, e.agent, `ended its turn ${n === 1 ? "once" : `${n} times`} without ${what} (${limit} reminder${limit === 1 ? "" : "s"} sent)`);
  step.setAgent(e.agent, { status: "idle_without_submit", idle_turns: n });
  const backoff = step.settings.nudge_backoff_ms ?? 5000;
  step.emit({
    type: "nudge_agent",
    agent: e.agent,
    tool: owed.tool,
    file: owed.file,
    attempt: n,
    limit,
    ...(a.refusal ? { refusal: a.refusal } : {}),
    decide: step.settings.headless === true || !mayAsk,
    delay_ms: n === 1 ? 0 : backoff * 2 ** (n - 2),
  });
  step.log("reminder", `${e.agent} ended its turn without ${what}: reminder ${n}/${limit}`, {
    agent: e.agent,
    data: { attempt: n, limit, owed: owed.tool ?? owed.file },
  });
}

function nextFallback(step: Step, a: AgentInfo): string | undefined {
  const tried = new Set([...(a.fallen_from ?? []), a.provider]);
  return (step.settings.role_agents[a.role]?.fallback ?? []).find((p) => !tried.has(p));
}

function rateLimited(step: Step, e: EventOf<"agent_rate_limited">): void {
  const a = step.agents()[e.agent];
  if (!isLive(a)) return;
  const limit: AgentLimit = { text: clip(e.text, 200), reset_at: e.reset_at, at: e.at };
  const next = nextFallback(step, a);
  if (next && a.prompt) {
    step.setAgent(e.agent, {
      status: "starting",
      provider: next,
      model: null,
      limit,
      idle_turns: 0,
      conversation_id: undefined,
      fallen_from: [...(a.fallen_from ?? []), a.provider ?? "?"],
      note: `moved from ${a.provider} to ${next} after a usage limit`,
    });
    step.emit({ type: "launch_agent", agent: e.agent, role: a.role, label: a.label, provider: next });
    rePrompt(step, e.agent);
    step.log("usage_limit", `${e.agent} hit a usage limit on ${a.provider} (${limit.text}); restarting it on the fallback provider ${next}`, {
      agent: e.agent,
      data: { from: a.provider, fallback: next },
    });
    return;
  }
  step.setAgent(e.agent, { status: "rate_limited", limit });
  step.log("usage_limit", `${e.agent} hit a usage limit (${limit.text}); waiting ${e.reset_at ? `until ${e.reset_at}` : "to retry (watchdog.limit_retry_s)"}`, {
    agent: e.agent,
    data: { reset_at: e.reset_at ?? null },
  });
}

function limitReset(step: Step, e: EventOf<"limit_reset">): void {
  const a = step.agents()[e.agent];
  if (a?.status !== "rate_limited") return;
  step.setAgent(e.agent, { status: "working", note: "continuing after a usage limit" });
  const prompt = a.prompt ? `: read and follow the instructions in ${step.state.feature_dir}/${a.prompt.path}` : "";
  step.emit({ type: "notify_agent", agent: e.agent, text: `The usage limit has reset. Continue your task${prompt}. Do not redo work that is already done.` });
}

function paneExited(step: Step, e: EventOf<"pane_exited">, owner: string | undefined): void {
  const a = step.agents()[e.agent];
  if (!isLive(a)) return;
  const screen = (e.screen ?? []).filter((l) => l.trim()).slice(-12);
  const exit = { exit_status: e.exit_status ?? "", last_screen: screen };
  const how = `the ${a.label} pane exited${e.exit_status ? ` with status ${e.exit_status}` : ""}${e.detail ? ` (${e.detail})` : ""}`;
  step.log("agent_exited", screen.length ? `${how}; its last screen:\n${screen.map((l) => `  │ ${l}`).join("\n")}` : how, {
    agent: e.agent,
    data: { exit_status: e.exit_status ?? null, screen },
  });
  if (a.role === "code-researcher" || a.role === "web-researcher") {
    researcherCrashed(step, e.agent, owner);
    step.setAgent(e.agent, { status: "exited", ...exit });
    return;
  }
  const n = (a.restarts ?? 0) + 1;
  const max = step.settings.restarts ?? 2;
  if (n <= max && a.prompt) {
    step.log("restart", `${how}: restarting it with its prompt (${n}/${max})`, { agent: e.agent, data: { restart: n, of: max } });
    step.setAgent(e.agent, { status: "starting", restarts: n, ...exit, idle_turns: 0, note: `restarted (${n}/${max}) after ${how.slice(4)}` });
    const provider = a.fallen_from?.length ? { provider: a.provider } : {};
    step.emit({
      type: "launch_agent",
      agent: e.agent,
      role: a.role,
      label: a.label,
      ...provider,
      ...(a.conversation_id ? { conversation: a.conversation_id } : {}),
    });
    rePrompt(step, e.agent);
    return;
  }
  step.setAgent(e.agent, { status: "exited", ...exit, note: how });
  const last = screen.at(-1);
  const restarts = n > 1 ? ` after ${n - 1} restart${n > 2 ? "s" : ""}` : "";
  step.fail(`${how}${restarts} while the run was ${step.state.phase}${last ? `; its last line: ${clip(last, 200)}` : ""}`);
}

/**
 * Events about one agent's runtime (turns, questions, limits, exits, tool calls). Returns false
 * for other events. `researchOwner` is the agent told when a researcher dies.
 */
export function handleAgentEvent(step: Step, event: Event, researchOwner: string | undefined): boolean {
  switch (event.type) {
    case "agent_turn_ended":
      turnEnded(step, event);
      return true;
    case "agent_dialog": {
      const a = step.agents()[event.agent];
      if (isLive(a) && a.status !== "needs_input") asks(step, event.agent, { kind: event.kind, text: event.text }, true);
      return true;
    }
    case "agent_rate_limited":
      rateLimited(step, event);
      return true;
    case "limit_reset":
      limitReset(step, event);
      return true;
    case "agent_tool_call": {
      const a = step.agents()[event.agent];
      if (!isLive(a)) return true;
      if (event.ok) {
        if (a.status !== "working") step.setAgent(event.agent, { status: "working", question: undefined, note: undefined });
      } else {
        // a refused submit is work, not a turn end: the reminders start over, naming the refusal;
        // the same refusal as last time is no progress (a reminder only made it call the tool again)
        const refusal = clip(event.message ?? "refused", 300);
        step.setAgent(event.agent, { status: "working", refusal, idle_turns: refusal === a.refusal ? a.idle_turns : 0, question: undefined });
      }
      return true;
    }
    case "conversation_captured": {
      const a = step.agents()[event.agent];
      if (isLive(a) && a.conversation_id !== event.id) step.setAgent(event.agent, { status: a.status, conversation_id: event.id });
      return true;
    }
    case "agent_stuck": {
      const a = step.agents()[event.agent];
      // an agent waiting on a person, a limit or research is quiet on purpose
      if (a && (a.status === "starting" || a.status === "working" || a.status === "idle_without_submit")) markStuck(step, event.agent, event.reason);
      return true;
    }
    case "agent_answer":
      answered(step, event);
      return true;
    case "agent_active": {
      const a = step.agents()[event.agent];
      if (isLive(a) && a.status !== "working") step.setAgent(event.agent, { status: "working", note: undefined, question: undefined });
      return true;
    }
    case "pane_exited":
      paneExited(step, event, researchOwner);
      return true;
    default:
      return false;
  }
}

import type { Event, EventOf } from "../schema/events.ts";
import type { Role } from "../schema/catalog.ts";
import { withTopic, withoutTopic } from "../schema/topic-tasks.ts";
import { quotedPath, researchDir } from "../protocol/paths.ts";
import type { Step } from "./step.ts";

export const researcherKey = (type: "code" | "web", topic: string) => `${type}-researcher:${topic}`;
const tasksField = (type: "code" | "web"): "research_tasks" | "web_research_tasks" => (type === "code" ? "research_tasks" : "web_research_tasks");

function requestMarkdown(e: EventOf<"research_dispatched">): string {
  const lines = [`# Research Request: ${e.topic}`, "", "## Context", "", e.context.trim(), "", "## Questions", ""];
  for (const q of e.questions) lines.push(`- ${q.trim()}`);
  if (e.scope_hints && e.scope_hints.length) {
    lines.push("", "## Scope Hints", "");
    for (const h of e.scope_hints) lines.push(`- ${h}`);
  }
  return lines.join("\n") + "\n";
}

/** Render a topic's researcher prompt (from its request.md) and start the researcher in batch mode. */
function launchResearcher(step: Step, type: "code" | "web", topic: string): void {
  const dir = researchDir(type, topic);
  const role = type === "code" ? "code-researcher" : "web-researcher";
  step.emit({ type: "write_prompt", path: `${dir}/prompt.md`, template: role, role, vars: { topic, research_type: type } });
  step.launch(researcherKey(type, topic), role, `[${role}] ${topic}`, topic, `${dir}/prompt.md`);
}

const researcherLive = (step: Step, type: "code" | "web", topic: string) => step.liveAgents((k) => k === researcherKey(type, topic)).length > 0;

/**
 * Research on demand, shared by the phases whose agent may dispatch it. `owner` is the agent
 * told when a topic is done. Returns true when the event was a research event.
 */
export function handleResearch(step: Step, event: Event, owner: { agent: string; role: Role }): boolean {
  if (event.type === "research_dispatched") {
    const field = tasksField(event.research_type);
    const tasks = step.state[field];
    const status = tasks?.[event.topic];
    if (status === "done" || (status === "dispatched" && researcherLive(step, event.research_type, event.topic))) {
      step.log("ignored", `research ${event.research_type}/${event.topic} already ${status}; ignoring the repeat`, {
        data: { event: event.type, topic: event.topic },
      });
      return true;
    }
    // a new topic, or one whose researcher is gone (an interrupted run): (re)start it
    step.emit({ type: "write_file", path: `${researchDir(event.research_type, event.topic)}/request.md`, content: requestMarkdown(event) });
    launchResearcher(step, event.research_type, event.topic);
    step.set({ [field]: withTopic(tasks, event.topic, "dispatched") });
    return true;
  }
  if (event.type === "research_done") {
    const field = tasksField(event.research_type);
    const tasks = step.state[field];
    if (tasks?.[event.topic] !== "dispatched") return true;
    const key = researcherKey(event.research_type, event.topic);
    step.kill(key);
    // a finished researcher leaves the agents list (its topic stays in research_tasks): long
    // runs with many topics keep a small agents map
    const { [key]: _done, ...agents } = step.agents();
    step.set({ [field]: withTopic(tasks, event.topic, "done"), agents });
    const summary = `${step.state.feature_dir}/${researchDir(event.research_type, event.topic)}/summary.md`;
    step.emit({ type: "notify_agent", agent: owner.agent, text: `Research on ${event.topic} is complete. Read ${quotedPath(summary)} and continue.` });
    return true;
  }
  return false;
}

/**
 * A resumed phase that owns research starts the researchers of every topic still dispatched:
 * they were stopped with the run (their request.md is on disk). Topics finished while the
 * orchestrator was down were applied as done before this entry.
 */
export function relaunchResearch(step: Step): void {
  for (const type of ["code", "web"] as const) {
    for (const [topic, status] of Object.entries(step.state[tasksField(type)] ?? {})) {
      if (status !== "dispatched" || researcherLive(step, type, topic)) continue;
      step.log("research_restart", `research ${type}/${topic} was interrupted; starting its researcher again`, { data: { type, topic } });
      launchResearcher(step, type, topic);
    }
  }
}

/** A researcher pane that died: tell the owner, forget the topic (it may be dispatched again). */
export function researcherCrashed(step: Step, agent: string, owner: string | undefined): void {
  const [kind, topic] = agent.split(":") as [string, string];
  const type = kind === "code-researcher" ? "code" : "web";
  const field = tasksField(type);
  step.set({ [field]: withoutTopic(step.state[field], topic) });
  step.setAgent(agent, { status: "exited" });
  if (owner) {
    step.emit({
      type: "notify_agent",
      agent: owner,
      text: `Research on ${topic} failed: the researcher exited before finishing. Dispatch it again or continue without it.`,
    });
  }
}

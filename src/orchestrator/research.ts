import type { Event, EventOf } from "../schema/events.ts";
import type { Role } from "../schema/catalog.ts";
import { researchDir } from "../session/paths.ts";
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

/**
 * Research on demand, shared by the phases whose agent may dispatch it. `owner` is the agent
 * told when a topic is done. Returns true when the event was a research event.
 */
export function handleResearch(step: Step, event: Event, owner: { agent: string; role: Role }): boolean {
  if (event.type === "research_dispatched") {
    const field = tasksField(event.research_type);
    const tasks = step.state[field] ?? {};
    if (tasks[event.topic]) {
      step.log(`research ${event.research_type}/${event.topic} already dispatched; ignoring the repeat`);
      return true;
    }
    const dir = researchDir(event.research_type, event.topic);
    const role = event.research_type === "code" ? "code-researcher" : "web-researcher";
    step.emit({ type: "write_file", path: `${dir}/request.md`, content: requestMarkdown(event) });
    step.emit({ type: "write_prompt", path: `${dir}/prompt.md`, template: role, role, vars: { topic: event.topic, research_type: event.research_type } });
    step.launch(researcherKey(event.research_type, event.topic), role, `[${role}] ${event.topic}`, event.topic, `${dir}/prompt.md`);
    step.set({ [field]: { ...tasks, [event.topic]: "dispatched" } });
    return true;
  }
  if (event.type === "research_done") {
    const field = tasksField(event.research_type);
    const tasks = step.state[field] ?? {};
    if (tasks[event.topic] !== "dispatched") return true;
    const key = researcherKey(event.research_type, event.topic);
    step.kill(key);
    // a finished researcher leaves the agents list (its topic stays in research_tasks): long
    // runs with many topics keep a small agents map
    const { [key]: _done, ...agents } = step.agents();
    step.set({ [field]: { ...tasks, [event.topic]: "done" }, agents });
    const summary = `${step.state.feature_dir}/${researchDir(event.research_type, event.topic)}/summary.md`;
    step.emit({ type: "notify_agent", agent: owner.agent, text: `Research on ${event.topic} is complete. Read ${summary} and continue.` });
    return true;
  }
  return false;
}

/** A researcher pane that died: tell the owner, forget the topic (it may be dispatched again). */
export function researcherCrashed(step: Step, agent: string, owner: string | undefined): void {
  const [kind, topic] = agent.split(":") as [string, string];
  const type = kind === "code-researcher" ? "code" : "web";
  const field = tasksField(type);
  const tasks = { ...(step.state[field] ?? {}) };
  delete tasks[topic];
  step.set({ [field]: tasks });
  step.setAgent(agent, { status: "exited" });
  if (owner) {
    step.emit({
      type: "notify_agent",
      agent: owner,
      text: `Research on ${topic} failed: the researcher exited before finishing. Dispatch it again or continue without it.`,
    });
  }
}

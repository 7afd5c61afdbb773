import { join } from "node:path";
import { formatProblem, readArtifact, zodProblems } from "../artifacts/index.ts";
import type { Event } from "../schema/events.ts";
import { ToolPayloads, type ToolEventLine } from "../schema/tool-events.ts";
import { F, doneArtifact, reviewYaml } from "../session/paths.ts";

const rejected = (line: ToolEventLine, reason: string): Event => ({ type: "tool_rejected", at: line.timestamp, tool: line.tool, reason });

/**
 * Turn one tool_events.jsonl line into a workflow event, reading the artifact the tool vouched
 * for (plan.yaml, review YAML, done_<N>.json) so that transitions never touch the disk.
 */
export async function toolLineToEvent(line: ToolEventLine, sessionDir: string): Promise<Event> {
  const at = line.timestamp;
  const payload = ToolPayloads[line.tool].safeParse(line.payload);
  if (!payload.success) return rejected(line, zodProblems(payload.error, line.payload).map((x) => (x.path ? `payload.${x.path}: ${x.message}` : `payload: ${x.message}`)).join("; "));
  const p = payload.data as Record<string, any>;
  switch (line.tool) {
    case "submit_pm_done":
      return { type: "pm_done", at };
    case "submit_architecture":
      return { type: "architecture_submitted", at, ...(p.reviewers ? { reviewers: p.reviewers } : {}) };
    case "submit_plan": {
      const r = await readArtifact("plan", join(sessionDir, F.planYaml));
      return r.ok ? { type: "plan_submitted", at, plan: r.value as any } : rejected(line, `plan.yaml: ${r.problems.map(formatProblem).join("; ")}`);
    }
    case "submit_review": {
      const r = await readArtifact("review", join(sessionDir, reviewYaml(p.role)));
      return r.ok ? { type: "review_submitted", at, role: p.role, review: r.value as any } : rejected(line, `review_${p.role}.yaml: ${r.problems.map(formatProblem).join("; ")}`);
    }
    case "submit_done": {
      const r = await readArtifact("done", join(sessionDir, doneArtifact(p.subplan_index)));
      return { type: "coder_done", at, subplan_index: p.subplan_index, ...(r.ok ? { artifact: r.value as any } : {}) };
    }
    case "submit_research_done":
      return { type: "research_done", at, research_type: p.type, topic: p.topic };
    case "research_dispatch_code":
    case "research_dispatch_web":
      return {
        type: "research_dispatched",
        at,
        research_type: p.research_type,
        topic: p.topic,
        context: p.context,
        questions: p.questions,
        scope_hints: p.scope_hints ?? null,
      };
  }
}

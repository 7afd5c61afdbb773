import { join } from "node:path";
import { readArtifact } from "../artifacts/parse.ts";
import { formatProblem, zodProblems } from "../artifacts/problems.ts";
import type { Event } from "../schema/events.ts";
import { TypedToolEventLine, type ToolEventLine } from "../schema/tool-events.ts";
import { F, doneArtifact, reviewYaml } from "../session/paths.ts";

const rejected = (line: ToolEventLine, reason: string): Event => ({ type: "tool_rejected", at: line.timestamp, tool: line.tool, reason });

/**
 * Turn one tool_events.jsonl line into a workflow event, reading the artifact the tool vouched
 * for (plan.yaml, review YAML, done_<N>.json) so that transitions never touch the disk.
 */
export async function toolLineToEvent(raw: ToolEventLine, sessionDir: string): Promise<Event> {
  const checked = TypedToolEventLine.safeParse(raw);
  if (!checked.success) return rejected(raw, zodProblems(checked.error, raw).map(formatProblem).join("; "));
  const line = checked.data;
  const at = line.timestamp;
  switch (line.tool) {
    case "submit_pm_done":
      return { type: "pm_done", at };
    case "submit_architecture":
      return { type: "architecture_submitted", at, ...(line.payload.reviewers ? { reviewers: line.payload.reviewers } : {}) };
    case "submit_plan": {
      const r = await readArtifact("plan", join(sessionDir, F.planYaml));
      return r.ok ? { type: "plan_submitted", at, plan: r.value } : rejected(raw, `plan.yaml: ${r.problems.map(formatProblem).join("; ")}`);
    }
    case "submit_review": {
      const { role } = line.payload;
      const r = await readArtifact("review", join(sessionDir, reviewYaml(role)));
      return r.ok ? { type: "review_submitted", at, role, review: r.value } : rejected(raw, `review_${role}.yaml: ${r.problems.map(formatProblem).join("; ")}`);
    }
    case "submit_done": {
      const { subplan_index } = line.payload;
      const r = await readArtifact("done", join(sessionDir, doneArtifact(subplan_index)));
      return { type: "coder_done", at, subplan_index, ...(r.ok ? { artifact: r.value } : {}) };
    }
    case "submit_research_done":
      return { type: "research_done", at, research_type: line.payload.type, topic: line.payload.topic };
    case "research_dispatch_code":
    case "research_dispatch_web": {
      const { research_type, topic, context, questions, scope_hints } = line.payload;
      return { type: "research_dispatched", at, research_type, topic, context, questions, scope_hints };
    }
  }
}

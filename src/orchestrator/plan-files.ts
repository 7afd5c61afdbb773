import { stringify } from "yaml";
import type { Plan, Subplan } from "../schema/artifacts/plan.ts";
import type { State } from "../schema/state.ts";
import { F, planFile, tasksFile } from "../protocol/paths.ts";

const asList = (v: string | string[]) => (Array.isArray(v) ? v.map((x) => `- ${x}`).join("\n") : v.trim());

function planMarkdown(s: Subplan): string {
  const parts = [
    `# Plan ${s.index}: ${s.title}`,
    "## Scope",
    s.scope.trim(),
    "## Owned Files",
    s.owned_files.map((f) => `- ${f}`).join("\n"),
    "## Dependencies",
    asList(s.dependencies),
    "## Implementation Approach",
    s.implementation_approach.trim(),
    "## Acceptance Criteria",
    asList(s.acceptance_criteria),
  ];
  if (s.isolation_rationale) parts.push("## Isolation Rationale", s.isolation_rationale.trim());
  return parts.join("\n\n") + "\n";
}

export function tasksMarkdown(s: Subplan): string {
  return [`# Tasks: ${s.title}`, "", ...s.tasks.map((t) => `- [ ] ${t}`)].join("\n") + "\n";
}

/** plan.md's last section when the planner set review_strategy: the reviewers' prompts include plan.md. */
function reviewFocus(plan: Plan): string {
  const r = plan.review_strategy;
  if (!r) return "";
  const focus = r.focus?.length ? `Look hardest at: ${r.focus.join(", ")}.\n` : "";
  return `\n## Review focus\n\nSeverity: ${r.severity}.\n${focus}`;
}

/**
 * The files the orchestrator derives from an accepted plan.yaml: plan_<N>.md and tasks_<N>.md
 * per subplan, plan.md (the overview) and execution_plan.yaml. Always regenerated.
 */
export function materializePlan(plan: Plan): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  for (const s of [...plan.subplans].sort((a, b) => a.index - b.index)) {
    files.push({ path: planFile(s.index), content: planMarkdown(s) });
    files.push({ path: tasksFile(s.index), content: tasksMarkdown(s) });
  }
  files.push({ path: F.planMd, content: `# Plan\n\n${plan.plan_overview.trim()}\n${reviewFocus(plan)}` });
  const execution = {
    groups: plan.groups.map((g) => ({
      group_id: g.group_id,
      mode: g.mode,
      plans: g.plans.map((p) => ({ file: `plan_${p.index}.md`, name: p.name })),
    })),
    needs_design: plan.needs_design,
    needs_docs: plan.needs_docs,
    doc_files: plan.doc_files,
  };
  files.push({ path: F.executionPlan, content: stringify(execution) });
  return files;
}

/** What an accepted plan sets in state: its groups (transitions cannot read files) and counts. */
export function planStateFields(plan: Plan): Partial<State> {
  const partial = new Set(plan.subplans.filter((s) => s.allow_partial).map((s) => s.index));
  return {
    subplan_count: plan.subplans.length,
    needs_design: plan.needs_design,
    execution_groups: plan.groups.map((g) => ({
      group_id: g.group_id,
      mode: g.mode,
      plans: g.plans.map((p) => ({ index: p.index, name: p.name, ...(partial.has(p.index) ? { allow_partial: true } : {}) })),
    })),
    implementation_group_total: plan.groups.length,
    implementation_group_index: 0,
    implementation_group_mode: null,
    implementation_active_plan_ids: [],
    implementation_completed_group_ids: [],
  };
}

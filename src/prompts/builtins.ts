import { basename } from "node:path";
import { ROLE_TOOLS, ROLES, type Role, type ToolName } from "../schema/catalog.ts";
import { doneArtifact, planFile, researchDir, tasksFile } from "../protocol/paths.ts";
import { contractFields } from "./contracts.ts";
import { fileBlock, readSessionFile } from "./expand.ts";
import { BadPromptVar, IncludedFileMissing, MissingPromptVar, NoSubmitTool } from "./errors.ts";
import { lineCommentsSection, projectInstructions, researchHandoff } from "./session-context.ts";
import type { RenderOptions } from "./render.ts";
import { checkFindingsSection, checkResultsSection } from "./check-context.ts";

/** What a built-in placeholder sees: the render options, with the tool namer as `tool`. */
export type BuiltinContext = Omit<RenderOptions, "toolName" | "subAgentTool"> & {
  tool: (tool: ToolName) => string;
  subAgentTool: string | null;
};

const ROLE_DUTIES: Record<Role, string> = {
  "product-manager": "turns the request into testable requirements in requirements.md",
  architect: "writes 02_architecting/architecture.md and nominates reviewers",
  planner: "writes 04_planning/plan.yaml (sub-plans, groups, owned files)",
  designer: "writes 05_design/design.md when the plan needs design",
  coder: "implements one sub-plan (or all of them in single-coder mode)",
  reviewer_logic: "checks the change against requirements, architecture and plan",
  reviewer_quality: "checks clean code, naming, tests and project standards",
  reviewer_expert: "checks security, performance, concurrency and edge cases",
  "code-researcher": "answers questions about the codebase (batch, no questions asked)",
  "web-researcher": "answers questions from the web (batch, no questions asked)",
};

function need(ctx: BuiltinContext, name: string): string {
  const v = ctx.vars[name];
  if (v === undefined || v.trim() === "") throw new MissingPromptVar({ template: ctx.template, name });
  return v.trim();
}

function positiveInt(ctx: BuiltinContext, name: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new BadPromptVar({ template: ctx.template, name, raw });
  return Number(raw);
}

function requiredFile(ctx: BuiltinContext, rel: string): string {
  const text = readSessionFile(ctx.sessionDir, rel, ctx.template);
  if (text === null) throw new IncludedFileMissing({ template: ctx.template, path: rel });
  return fileBlock(rel, text);
}

/** Single-coder mode: every plan with its tasks and its own completion steps. */
function plansSection(ctx: BuiltinContext): string {
  const indices = need(ctx, "plan_indices")
    .split(",")
    .map((s) => positiveInt(ctx, "plan_indices", s.trim()));
  return indices
    .map((n) =>
      [
        `### Plan ${n}`,
        requiredFile(ctx, planFile(n)),
        requiredFile(ctx, tasksFile(n)),
        `When plan ${n} is complete: write \`${doneArtifact(n)}\`, then call \`${ctx.tool("submit_done")}\` with \`subplan_index: ${n}\`.`,
      ].join("\n\n"),
    )
    .join("\n\n");
}

function submitTool(ctx: BuiltinContext): string {
  const tool = ROLE_TOOLS[ctx.role].find((t) => t.startsWith("submit_"));
  if (!tool) throw new NoSubmitTool({ template: ctx.template, role: ctx.role });
  return ctx.tool(tool);
}

/** Built-in placeholders, computed only when a template uses them. */
export const BUILTINS: Record<string, (ctx: BuiltinContext) => string> = {
  feature_dir: (c) => c.sessionDir,
  project_dir: (c) => c.workDir,
  session_name: (c) => basename(c.sessionDir),
  role: (c) => c.role,
  user_ask_tool: (c) => (c.askTool ? `the \`${c.askTool}\` tool` : "a direct question in your reply (end your turn and wait for the user's answer)"),
  research_handoff: (c) => researchHandoff(c.sessionDir, c.template),
  line_comments: (c) => lineCommentsSection(c.sessionDir, c.workDir),
  check_results: (c) => checkResultsSection(c.sessionDir),
  check_findings: (c) => checkFindingsSection(c.sessionDir, c.workDir),
  project_instructions: (c) => projectInstructions(c.projectDir, c.template, c.role),
  submit_tool: submitTool,
  roles_table: () => ROLES.map((r) => `- \`${r}\` — ${ROLE_DUTIES[r]}`).join("\n"),
  plan_fields: () => contractFields("plan"),
  done_fields: () => contractFields("done"),
  review_fields: () => contractFields("review"),
  research_dispatch_fields: () => contractFields("research_dispatch"),
  preference_fields: () => contractFields("preference"),
  plans_section: plansSection,
  sub_agent_instruction: (c) =>
    c.subAgentTool
      ? `Plans in the same parallel group are independent: hand each one to a sub-agent with \`${c.subAgentTool}\`, giving it the plan, its task list and its owned files, and wait for all of them before the next group. You still write every done_N.json and make every \`${c.tool("submit_done")}\` call yourself.`
      : "Work through the plans one at a time, group by group, in the order of the execution plan.",
  research_dir: (c) => researchDir(c.role === "web-researcher" ? "web" : "code", need(c, "topic")),
  research_type: (c) => (c.role === "web-researcher" ? "web" : "code"),
  previous_review_iteration: (c) => String(positiveInt(c, "review_iteration", need(c, "review_iteration")) - 1),
};

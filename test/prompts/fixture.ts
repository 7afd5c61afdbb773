import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Role, ToolName } from "../../src/schema/catalog.ts";
import type { RenderOptions } from "../../src/prompts/render.ts";
import { makeTmpDir } from "../helpers/tmp.ts";

/** Distinct markers so tests can tell which session file ended up in which prompt. */
export const TEXT = {
  requirements: "# Rate limiting\nREQ-MARKER: limit each API key to 100 requests per minute. Costs {x} and $HOME stay literal.",
  context: "# session context\nCONTEXT-MARKER",
  architecture: "# Architecture\nARCH-MARKER: a token bucket per key in src/limits/store.ts",
  planMd: "PLAN-OVERVIEW-MARKER: contracts, then store and middleware in parallel",
  plan1: "# Shared types\nPLAN1-MARKER\n## Owned Files\n- src/limits/types.ts",
  plan2: "# Token store\nPLAN2-MARKER\n## Owned Files\n- src/limits/store.ts",
  tasks1: "# Tasks: Shared types\n- [ ] TASK1-MARKER write the types",
  tasks2: "# Tasks: Token store\n- [ ] TASK2-MARKER write the store",
  design: "DESIGN-MARKER",
  executionPlan: "groups:\n  - group_id: g1\n    mode: serial\n    plans: [{file: plan_1.md, name: Shared types}]\n",
  fixRequest: "## Review: reviewer_logic (verdict: fail)\nFIX-REQUEST-MARKER: counter increment is not atomic at src/limits/store.ts:42",
  previousReview: "verdict: fail\nPREVIOUS-REVIEW-MARKER",
  reviewMd: "verdict: pass\nREVIEW-MD-MARKER",
  changes: "CHANGES-MARKER: also expose the remaining quota in an X-RateLimit-Remaining header",
  request: "# Research Request: auth-flow\n## Context\nREQUEST-MARKER",
};

export interface Fixture {
  root: string;
  sessionDir: string;
  projectDir: string;
  workDir: string;
  write(rel: string, text: string): void;
}

export function makeSession(): Fixture {
  const root = makeTmpDir("amx-prompts-");
  const projectDir = join(root, "project");
  const sessionDir = join(projectDir, ".agentmux", ".sessions", "20260101-120000-rate-limiting");
  const workDir = join(root, "project-worktrees", "rate-limiting");
  mkdirSync(workDir, { recursive: true });
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(sessionDir, rel)), { recursive: true });
    writeFileSync(join(sessionDir, rel), text);
  };
  write("requirements.md", TEXT.requirements);
  write("context.md", TEXT.context);
  write("02_architecting/architecture.md", TEXT.architecture);
  write("04_planning/plan.md", TEXT.planMd);
  write("04_planning/plan_1.md", TEXT.plan1);
  write("04_planning/plan_2.md", TEXT.plan2);
  write("04_planning/tasks_1.md", TEXT.tasks1);
  write("04_planning/tasks_2.md", TEXT.tasks2);
  write("04_planning/execution_plan.yaml", TEXT.executionPlan);
  write("05_design/design.md", TEXT.design);
  write("07_review/fix_request.md", TEXT.fixRequest);
  write("07_review/review_1_reviewer_logic.md", TEXT.previousReview);
  write("07_review/review.md", TEXT.reviewMd);
  write("08_completion/changes.md", TEXT.changes);
  write("03_research/code-auth-flow/request.md", TEXT.request);
  write("03_research/web-auth-flow/request.md", TEXT.request);
  write("state.json", JSON.stringify({ phase: "planning", research_tasks: {}, web_research_tasks: {} }));
  return { root, sessionDir, projectDir, workDir, write };
}

export const claudeToolName = (t: ToolName) => `mcp__agentmux__${t}`;

/** The template → role → vars the orchestrator uses for each prompt. */
export const CASES: { template: string; role: Role; vars: Record<string, string> }[] = [
  { template: "context", role: "architect", vars: {} },
  { template: "product-manager", role: "product-manager", vars: {} },
  { template: "architect", role: "architect", vars: {} },
  { template: "planner", role: "planner", vars: {} },
  { template: "change", role: "planner", vars: {} },
  { template: "designer", role: "designer", vars: {} },
  { template: "coder", role: "coder", vars: { plan_index: "2" } },
  { template: "coder-whole", role: "coder", vars: { plan_indices: "1,2" } },
  { template: "reviewer_logic", role: "reviewer_logic", vars: { review_iteration: "0" } },
  { template: "reviewer_quality", role: "reviewer_quality", vars: { review_iteration: "0" } },
  { template: "reviewer_expert", role: "reviewer_expert", vars: { review_iteration: "0" } },
  { template: "review-followup", role: "reviewer_logic", vars: { review_role: "reviewer_logic", review_iteration: "2" } },
  { template: "fix", role: "coder", vars: { review_iteration: "1" } },
  { template: "summary", role: "reviewer_logic", vars: {} },
  { template: "code-researcher", role: "code-researcher", vars: { topic: "auth-flow", research_type: "code" } },
  { template: "web-researcher", role: "web-researcher", vars: { topic: "auth-flow", research_type: "web" } },
];

export function options(f: Fixture, c: { template: string; role: Role; vars: Record<string, string> }, extra: Partial<RenderOptions> = {}): RenderOptions {
  return {
    template: c.template,
    role: c.role,
    vars: c.vars,
    sessionDir: f.sessionDir,
    projectDir: f.projectDir,
    workDir: f.workDir,
    toolName: claudeToolName,
    askTool: "AskUserQuestion",
    ...extra,
  };
}

export const caseFor = (template: string) => CASES.find((c) => c.template === template)!;

/**
 * The prompt templates, embedded in the binary (no assets folder at run time).
 * Keys are paths relative to assets/prompts/; a test checks this index against the folder.
 */
import context from "../../assets/prompts/context.md" with { type: "text" };
import productManager from "../../assets/prompts/agents/product-manager.md" with { type: "text" };
import architect from "../../assets/prompts/agents/architect.md" with { type: "text" };
import planner from "../../assets/prompts/agents/planner.md" with { type: "text" };
import designer from "../../assets/prompts/agents/designer.md" with { type: "text" };
import coder from "../../assets/prompts/agents/coder.md" with { type: "text" };
import reviewerLogic from "../../assets/prompts/agents/reviewer_logic.md" with { type: "text" };
import reviewerQuality from "../../assets/prompts/agents/reviewer_quality.md" with { type: "text" };
import reviewerExpert from "../../assets/prompts/agents/reviewer_expert.md" with { type: "text" };
import codeResearcher from "../../assets/prompts/agents/code-researcher.md" with { type: "text" };
import webResearcher from "../../assets/prompts/agents/web-researcher.md" with { type: "text" };
import change from "../../assets/prompts/commands/change.md" with { type: "text" };
import coderWhole from "../../assets/prompts/commands/coder-whole.md" with { type: "text" };
import reviewFollowup from "../../assets/prompts/commands/review-followup.md" with { type: "text" };
import fix from "../../assets/prompts/commands/fix.md" with { type: "text" };
import summary from "../../assets/prompts/commands/summary.md" with { type: "text" };
import sessionRules from "../../assets/prompts/shared/session-rules.md" with { type: "text" };
import userApproval from "../../assets/prompts/shared/user-approval.md" with { type: "text" };
import researchDispatch from "../../assets/prompts/shared/research-dispatch.md" with { type: "text" };
import researchHandoff from "../../assets/prompts/shared/research-handoff.md" with { type: "text" };
import researcherCore from "../../assets/prompts/shared/researcher-core.md" with { type: "text" };
import preferenceMemory from "../../assets/prompts/shared/preference-memory.md" with { type: "text" };
import projectInstructions from "../../assets/prompts/shared/project-instructions.md" with { type: "text" };
import contractPlan from "../../assets/prompts/shared/contract-plan.md" with { type: "text" };
import contractDone from "../../assets/prompts/shared/contract-done.md" with { type: "text" };
import contractReview from "../../assets/prompts/shared/contract-review.md" with { type: "text" };
import coderDiscipline from "../../assets/prompts/shared/coder-discipline.md" with { type: "text" };
import reviewerCore from "../../assets/prompts/shared/reviewer-core.md" with { type: "text" };
import userApprovalHeadless from "../../assets/prompts/shared/user-approval-headless.md" with { type: "text" };
import draftReview from "../../assets/prompts/shared/draft-review.md" with { type: "text" };
import draftReviewHeadless from "../../assets/prompts/shared/draft-review-headless.md" with { type: "text" };
import resolveGaps from "../../assets/prompts/shared/resolve-gaps.md" with { type: "text" };
import resolveGapsHeadless from "../../assets/prompts/shared/resolve-gaps-headless.md" with { type: "text" };
import pipelineEnd from "../../assets/prompts/shared/pipeline-end.md" with { type: "text" };
import pipelineEndHeadless from "../../assets/prompts/shared/pipeline-end-headless.md" with { type: "text" };
import preferenceMemoryHeadless from "../../assets/prompts/shared/preference-memory-headless.md" with { type: "text" };

export const TEMPLATE_FILES: Readonly<Record<string, string>> = {
  "context.md": context,
  "agents/product-manager.md": productManager,
  "agents/architect.md": architect,
  "agents/planner.md": planner,
  "agents/designer.md": designer,
  "agents/coder.md": coder,
  "agents/reviewer_logic.md": reviewerLogic,
  "agents/reviewer_quality.md": reviewerQuality,
  "agents/reviewer_expert.md": reviewerExpert,
  "agents/code-researcher.md": codeResearcher,
  "agents/web-researcher.md": webResearcher,
  "commands/change.md": change,
  "commands/coder-whole.md": coderWhole,
  "commands/review-followup.md": reviewFollowup,
  "commands/fix.md": fix,
  "commands/summary.md": summary,
  "shared/session-rules.md": sessionRules,
  "shared/user-approval.md": userApproval,
  "shared/research-dispatch.md": researchDispatch,
  "shared/research-handoff.md": researchHandoff,
  "shared/researcher-core.md": researcherCore,
  "shared/preference-memory.md": preferenceMemory,
  "shared/project-instructions.md": projectInstructions,
  "shared/contract-plan.md": contractPlan,
  "shared/contract-done.md": contractDone,
  "shared/contract-review.md": contractReview,
  "shared/coder-discipline.md": coderDiscipline,
  "shared/reviewer-core.md": reviewerCore,
  "shared/user-approval-headless.md": userApprovalHeadless,
  "shared/draft-review.md": draftReview,
  "shared/draft-review-headless.md": draftReviewHeadless,
  "shared/resolve-gaps.md": resolveGaps,
  "shared/resolve-gaps-headless.md": resolveGapsHeadless,
  "shared/pipeline-end.md": pipelineEnd,
  "shared/pipeline-end-headless.md": pipelineEndHeadless,
  "shared/preference-memory-headless.md": preferenceMemoryHeadless,
};

/** The template names the orchestrator renders, and which file each one is. */
export const TEMPLATE_NAMES = [
  "context",
  "product-manager",
  "architect",
  "planner",
  "change",
  "designer",
  "coder",
  "coder-whole",
  "reviewer_logic",
  "reviewer_quality",
  "reviewer_expert",
  "review-followup",
  "fix",
  "summary",
  "code-researcher",
  "web-researcher",
] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** Command templates (assets/prompts/commands/); they are extended by `.agentmux/prompts/commands/<name>.md`. */
export const COMMAND_TEMPLATES: ReadonlySet<string> = new Set(["change", "coder-whole", "review-followup", "fix", "summary"]);

export function templateFile(name: string): string | undefined {
  if (name === "context") return "context.md";
  if (!(TEMPLATE_NAMES as readonly string[]).includes(name)) return undefined;
  return COMMAND_TEMPLATES.has(name) ? `commands/${name}.md` : `agents/${name}.md`;
}

/**
 * Headless runs (nobody watches) render `<name>-headless` wherever a template says
 * `[[shared:<name>]]` and that variant exists: unattended prompts never ask a person.
 */
export function headlessFragments(fragments: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...fragments };
  for (const name of Object.keys(fragments)) {
    const variant = fragments[`${name}-headless`];
    if (variant !== undefined) out[name] = variant;
  }
  return out;
}

export const SHARED_FRAGMENTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(TEMPLATE_FILES)
    .filter(([path]) => path.startsWith("shared/"))
    .map(([path, text]) => [path.slice("shared/".length, -".md".length), text.replace(/\n+$/, "")]),
);

import { stringify } from "yaml";
import { Plan } from "../../schema/artifacts/plan.ts";
import { F } from "../../protocol/paths.ts";
import { requestLine, sessionSlug } from "../naming.ts";
import { assertValidPlan, changesPlan, defaultPlan, malformedPlan } from "./plan-builder.ts";
import { TaskFailed, writeArtifact, type TaskIO } from "./types.ts";

const MAX_TRIES = 3;

/** The changes section of a changes prompt, when 08_completion/changes.md is already gone. */
function changesFromPrompt(prompt: string): string {
  const m = /^#+\s*(?:requested\s+)?changes?[^\n]*\n([\s\S]*?)(?=^#+\s|$(?![\s\S]))/im.exec(prompt);
  return m?.[1]?.trim() ?? "";
}

/**
 * Planner: write 04_planning/plan.yaml (v2) and submit_plan. For changes_prompt.md the plan
 * addresses 08_completion/changes.md. Scenario malformed_plan_once: the first plan breaks
 * the contract; after the tool's error a valid one is written and resubmitted.
 */
export async function planner(io: TaskIO, opts: { changes: boolean; prompt: string }): Promise<void> {
  const { scenario } = io.s.env;
  const slug = sessionSlug(io.s);
  const request = requestLine(io.s.readOr(F.requirements, "")) || `the ${slug} feature`;
  let plan;
  if (opts.changes) {
    const changes = io.s.readOr(F.changes, "").trim() || changesFromPrompt(opts.prompt);
    let previous = null;
    try {
      previous = Plan.parse(io.s.readYaml(F.planYaml));
    } catch {
      previous = null;
    }
    plan = changesPlan(previous, slug, changes, { design: scenario.design });
  } else {
    plan = defaultPlan(slug, request, { parallel: scenario.parallel, ...(scenario.coders ? { coders: scenario.coders } : {}), design: scenario.design });
  }
  if (scenario.review_focus) plan.review_strategy = { severity: "medium", focus: ["security", "testing"] };
  assertValidPlan(plan);
  await io.think();
  let content: unknown = scenario.malformed_plan_once && io.s.once.take("malformed_plan") ? malformedPlan(plan) : plan;
  for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
    writeArtifact(io, F.planYaml, stringify(content));
    await io.think();
    const r = await io.tool("submit_plan", {});
    if (r.ok) return;
    io.say("● fixing plan.yaml after the tool's error");
    content = plan;
  }
  throw new TaskFailed(`submit_plan kept refusing after ${MAX_TRIES} tries`);
}

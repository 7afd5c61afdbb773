import { z } from "zod";
import { DoneArtifact } from "../schema/artifacts/done.ts";
import { Plan } from "../schema/artifacts/plan.ts";
import { Review } from "../schema/artifacts/review.ts";
import { Preference, ToolInputs } from "../schema/tool-events.ts";

/**
 * Field lists for the artifact contracts, generated from the zod schemas so the prompts
 * cannot drift from what the MCP tools validate. Notes add meaning; the structure
 * (names, types, required/optional, allowed values) always comes from the schema.
 */
type JsonSchema = {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  minItems?: number;
  minimum?: number;
  minLength?: number;
  default?: unknown;
  description?: string;
};

export const CONTRACT_SCHEMAS = {
  plan: Plan,
  done: DoneArtifact,
  review: Review,
  research_dispatch: ToolInputs.research_dispatch_code,
  preference: Preference,
} as const;
export type ContractName = keyof typeof CONTRACT_SCHEMAS;

const NOTES: Record<ContractName, Record<string, string>> = {
  plan: {
    plan_overview: "a few paragraphs: the goal, the three phases and how the sub-plans fit together",
    needs_design: "true only when the feature needs UI/visual design before coding",
    needs_docs: "true when user-facing documentation must change",
    doc_files: "documentation files to update (also put the edits as tasks inside a sub-plan)",
    groups: "execution order: groups run one after another",
    "groups[].mode": "serial = one coder runs the plans in order; parallel = one coder per plan at the same time",
    "groups[].plans[].index": "the index of a sub-plan",
    "groups[].plans[].name": "a short label shown in the monitor",
    "subplans[].index": "1, 2, 3 … without gaps; each index appears in exactly one group",
    "subplans[].owned_files": "the only files this sub-plan may create or edit; parallel sub-plans must not share any",
    "subplans[].dependencies": 'what must exist first (another sub-plan, a contract), or "none"',
    "subplans[].acceptance_criteria": "observable checks a reviewer can verify",
    "subplans[].tasks": "small, ordered, testable steps",
    "subplans[].isolation_rationale": "why this lane cannot collide with the others running beside it",
    "subplans[].allow_partial": 'true only when some tasks are optional: the coder may then report "status": "PARTIAL"; omit it otherwise',
    review_strategy: "optional: what reviewers should look at hardest; plan.md shows it to them",
    "review_strategy.severity": "how strict the review should be",
    "review_strategy.focus": "areas such as security, testing, performance",
  },
  done: {
    subplan_index: "the N of done_N.json",
    agent: 'who wrote it, e.g. "coder"',
    status: 'SUCCESS when every task is done and the tests pass; PARTIAL only if your sub-plan says "allow_partial: true"; submit_done refuses FAILED',
    tasks_completed: "the task lines you finished, copied from the task list",
    files_created: "project-relative paths of files you created; each must exist",
    files_modified: "project-relative paths of files you changed; each must really differ from the last commit",
    files_deleted: "project-relative paths of files you removed",
    "tests.files": "number of test files you added or changed",
    "tests.cases": "number of test cases in them",
    issues_fixed: 'fix rounds only: counts per severity, e.g. {"high": 2, "total": 2}',
    comments_addressed: 'fix rounds only: ids of the line comments you addressed, e.g. ["logic-1"]; each one\'s file must have changed',
    timestamp: "ISO 8601 time",
  },
  review: {
    verdict: "fail when anything must change before this can ship",
    summary: "two or three sentences",
    findings: "required (at least one) when verdict is fail",
    "findings[].location": "file:line or a component name",
    "findings[].issue": "what is wrong and why it matters",
    "findings[].recommendation": "the concrete change that resolves it",
    comments: "problems on particular lines of a changed file, anchored there (at most 100)",
    "comments[].file": "a file the change touched, relative to the project as git diff shows it",
    "comments[].line": "the line, counted in the file as it is now (or give start_line and end_line)",
    "comments[].start_line": "first line of a range (with end_line)",
    "comments[].end_line": "last line of a range, inclusive",
    "comments[].body": "what is wrong there and what to do",
    "comments[].suggestion": "replacement text for the commented lines, if you have one",
    commit_message: "on pass: a Conventional Commits message for the whole change (e.g. feat(auth): add rate limiting)",
  },
  research_dispatch: {
    topic: "a lowercase slug naming the topic, e.g. auth-flow",
    context: "why you need this and what you already know",
    questions: "precise questions the researcher must answer",
    scope_hints: "paths, packages or sites to start from",
  },
  preference: {
    target_role: "the role whose prompt should carry it (e.g. coder, reviewer_quality)",
    bullet: "one imperative sentence",
  },
};

function typeOf(s: JsonSchema): string {
  if (s.const !== undefined) return `always ${JSON.stringify(s.const)}`;
  if (s.enum) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(" | ")}`;
  if (s.anyOf) return s.anyOf.map(typeOf).join(", or ");
  if (s.type === "array") {
    const min = s.minItems ? ` (at least ${s.minItems})` : "";
    return `list of ${s.items ? typeOf(s.items) : "values"}${min}`;
  }
  if (s.type === "object" && s.properties) return "object";
  if (s.type === "object" && typeof s.additionalProperties === "object") return `map of name → ${typeOf(s.additionalProperties)}`;
  if (s.type === "integer") return s.minimum !== undefined ? `integer ≥ ${s.minimum}` : "integer";
  if (s.type === "string") return s.minLength ? "non-empty string" : "string";
  return s.type ?? "value";
}

function objectOf(s: JsonSchema): JsonSchema | undefined {
  if (s.properties) return s;
  if (s.type === "array" && s.items?.properties) return s.items;
  return undefined;
}

function lines(s: JsonSchema, contract: ContractName, prefix: string, depth: number): string[] {
  const out: string[] = [];
  const required = new Set(s.required ?? []);
  for (const [name, field] of Object.entries(s.properties ?? {})) {
    const path = prefix + name;
    const req = required.has(name) ? "required" : field.default !== undefined ? `optional, default ${JSON.stringify(field.default)}` : "optional";
    const note = NOTES[contract][path] ?? field.description;
    out.push(`${"  ".repeat(depth)}- \`${name}\` (${typeOf(field)}; ${req})${note ? ` — ${note}` : ""}`);
    const inner = objectOf(field);
    if (inner) out.push(...lines(inner, contract, `${path}${field.type === "array" ? "[]" : ""}.`, depth + 1));
  }
  return out;
}

/** The Markdown field list of one contract: every field of its schema, nested fields indented. */
export function contractFields(contract: ContractName): string {
  const schema = z.toJSONSchema(CONTRACT_SCHEMAS[contract], { io: "input" }) as JsonSchema;
  return lines(schema, contract, "", 0).join("\n");
}

/** Every field path a contract's schema declares (used by tests and for note drift checks). */
export function contractFieldPaths(contract: ContractName): string[] {
  const walk = (s: JsonSchema, prefix: string): string[] =>
    Object.entries(s.properties ?? {}).flatMap(([name, field]) => {
      const inner = objectOf(field);
      const path = prefix + name;
      return [path, ...(inner ? walk(inner, `${path}${field.type === "array" ? "[]" : ""}.`) : [])];
    });
  return walk(z.toJSONSchema(CONTRACT_SCHEMAS[contract], { io: "input" }) as JsonSchema, "");
}

export const contractNotes = (contract: ContractName): Record<string, string> => NOTES[contract];

import { Plan, type PlanInput } from "../../schema/artifacts/plan.ts";
import { LINE_COMMENTS_HEADING, parseLineComments } from "../../schema/artifacts/line-comments-md.ts";

type SubplanInput = PlanInput["subplans"][number];

function subplan(index: number, title: string, files: string[], scope: string, deps: string | string[]): SubplanInput {
  return {
    index,
    title,
    scope,
    owned_files: files,
    dependencies: deps,
    implementation_approach: `Write ${files.join(" and ")} as small ES modules with node:test tests.`,
    acceptance_criteria: [`${files[0]} exports the behaviour`, `${files[files.length - 1]} passes`],
    tasks: [`Create ${files[0]}`, ...files.slice(1).map((f) => `Add tests in ${f}`)],
  };
}

/**
 * The default plan: one serial group with one subplan owning `src/<slug>.js` + its test.
 * Scenario `parallel`: g1 (parallel) runs subplans 1 and 2 (`coders=<n>`: 1 to n) on disjoint
 * files, then g2 (serial) one more subplan, the entry point, which depends on them all.
 */
export function defaultPlan(slug: string, request: string, opts: { parallel?: boolean; coders?: number; design?: boolean }): PlanInput {
  const core = subplan(1, `Core ${slug} module`, [`src/${slug}.js`, `test/${slug}.test.js`], `Implement: ${request}`, "none");
  if (!opts.parallel && !opts.coders) {
    return {
      version: 2,
      plan_overview: `${request}: one module and its tests, built by one coder.`,
      needs_design: !!opts.design,
      needs_docs: false,
      doc_files: [],
      groups: [{ group_id: "g1", mode: "serial", plans: [{ index: 1, name: core.title }] }],
      subplans: [core],
    };
  }
  const coders = opts.coders ?? 2;
  const parts = [core];
  for (let n = 2; n <= coders; n++) {
    const name = n === 2 ? `${slug}_format` : `${slug}_part${n}`;
    parts.push(
      subplan(
        n,
        n === 2 ? `${slug} formatting` : `${slug} part ${n}`,
        [`src/${name}.js`, `test/${name}.test.js`],
        `${n === 2 ? "Formatting helpers" : `Part ${n}`} for: ${request}`,
        "none",
      ),
    );
  }
  for (const p of parts)
    p.isolation_rationale = `Owns different files from subplans ${parts
      .filter((q) => q !== p)
      .map((q) => q.index)
      .join(", ")}, so they can run at once.`;
  const last = coders + 1;
  const index = subplan(
    last,
    `${slug} entry point`,
    [`src/${slug}_index.js`, `test/${slug}_index.test.js`],
    `Wire the pieces of: ${request}`,
    parts.map((p) => `subplan ${p.index}`),
  );
  return {
    version: 2,
    plan_overview: `${request}: ${coders === 2 ? "two" : coders} independent modules in parallel, then an entry point.`,
    needs_design: !!opts.design,
    needs_docs: false,
    doc_files: [],
    groups: [
      { group_id: "g1", mode: "parallel", plans: parts.map((p) => ({ index: p.index, name: p.title })) },
      { group_id: "g2", mode: "serial", plans: [{ index: last, name: index.title }] },
    ],
    subplans: [...parts, index],
  };
}

/** A re-plan after the user asked for changes: one subplan editing the files the last plan owned. */
export function changesPlan(previous: Plan | null, slug: string, changes: string, opts: { design?: boolean }): PlanInput {
  const comments = parseLineComments(changes);
  const before = [...new Set(previous ? previous.subplans.flatMap((s) => s.owned_files) : [`src/${slug}.js`, `test/${slug}.test.js`])];
  // a line comment on a file is a change to that file: the sub-plan owns it
  const files = [...new Set([...before, ...comments.map((c) => c.file)])];
  const text = changes.split(LINE_COMMENTS_HEADING)[0]!;
  const ask = text.replace(/\s+/g, " ").trim().slice(0, 160) || (comments.length ? "the line comments" : "the requested changes");
  const commentTasks = comments.map(
    (c) =>
      `Address the comment on ${c.file} ${c.start_line === c.end_line ? `line ${c.start_line}` : `lines ${c.start_line}–${c.end_line}`}: ${c.body.replace(/\s+/g, " ").slice(0, 200)}`,
  );
  return {
    version: 2,
    plan_overview: `Follow-up: ${ask}`,
    needs_design: !!opts.design,
    needs_docs: false,
    doc_files: [],
    groups: [{ group_id: "g1", mode: "serial", plans: [{ index: 1, name: "Apply requested changes" }] }],
    subplans: [
      {
        index: 1,
        title: "Apply requested changes",
        scope: `Change request: ${ask}`,
        owned_files: files,
        dependencies: "the previous implementation",
        implementation_approach: "Edit the files the previous plan created; keep their tests passing.",
        acceptance_criteria: [`The change is visible in ${files[0]}`],
        tasks: [`Apply change: ${ask}`, ...commentTasks],
      },
    ],
  };
}

/** A plan that breaks the contract on purpose (scenario malformed_plan_once): no tasks, a dangling group entry. */
export function malformedPlan(plan: PlanInput): unknown {
  const broken = structuredClone(plan) as any;
  delete broken.subplans[0].tasks;
  broken.groups[0].plans.push({ index: 99, name: "dangling" });
  return broken;
}

/** Parse-check with the shared schema before writing; the sim never writes an invalid plan by accident. */
export function assertValidPlan(plan: PlanInput): void {
  Plan.parse(plan);
}

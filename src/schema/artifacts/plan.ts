import { z } from "zod";

const text = z.string().trim().min(1, "must be a non-empty string");

export const PlanRef = z.strictObject({
  index: z.number().int().min(1),
  name: text,
});

export const PlanGroup = z.strictObject({
  group_id: text,
  mode: z.enum(["serial", "parallel"]),
  plans: z.array(PlanRef).min(1, "must list at least one plan"),
});
export type PlanGroup = z.infer<typeof PlanGroup>;

export const Subplan = z.strictObject({
  index: z.number().int().min(1),
  title: text,
  scope: text,
  owned_files: z.array(text).min(1, "must list at least one owned file"),
  dependencies: z.union([text, z.array(text).min(1)]),
  implementation_approach: text,
  acceptance_criteria: z.union([text, z.array(text).min(1)]),
  tasks: z.array(text).min(1, "must list at least one task"),
  isolation_rationale: text.optional(),
  allow_partial: z
    .boolean()
    .optional()
    .describe('true: the coder may finish this sub-plan with "status": "PARTIAL" (some tasks optional); otherwise submit_done accepts only SUCCESS'),
});
export type Subplan = z.infer<typeof Subplan>;

/** An owned path as written, compared without a leading `./`, doubled or back slashes. */
const ownedKey = (f: string) =>
  f
    .trim()
    .replace(/\\/g, "/")
    .replace(/\/{2,}/g, "/")
    .replace(/^(\.\/)+/, "");

/**
 * What two parallel sub-plans both own: equal paths, and paths inside a folder (an entry
 * ending in `/`) the other owns. Empty when they are disjoint.
 */
function sharedFiles(a: { index: number; owned_files: string[] }, b: { index: number; owned_files: string[] }): string[] {
  const out: string[] = [];
  const bs = [...new Set(b.owned_files.map(ownedKey))];
  const as = [...new Set(a.owned_files.map(ownedKey))];
  for (const fa of as) if (bs.includes(fa)) out.push(fa);
  for (const [outer, inner, owner] of [
    [as, bs, a.index],
    [bs, as, b.index],
  ] as const) {
    for (const dir of outer.filter((f) => f.endsWith("/"))) {
      for (const f of inner) if (f !== dir && f.startsWith(dir)) out.push(`${f} (inside ${dir} of plan ${owner})`);
    }
  }
  return out;
}

/**
 * What the planner asks reviewers to look at hardest (the Python agentmux's contract: a severity
 * and focus areas such as `[security, testing]`); plan.md carries it to the reviewers' prompts.
 */
const StrategySeverity = z.enum(["low", "medium", "high"]);
export const ReviewStrategy = z.strictObject({
  severity: z.string().trim().toLowerCase().pipe(StrategySeverity).meta({ enum: StrategySeverity.options }),
  focus: z.array(text).optional(),
});
export type ReviewStrategy = z.infer<typeof ReviewStrategy>;

/** `04_planning/plan.yaml`, version 2: groups run in order; a parallel group runs one coder per plan. */
export const Plan = z
  .strictObject({
    version: z.literal(2, { error: "must be 2 (plan.yaml v2)" }),
    plan_overview: text,
    needs_design: z.boolean(),
    needs_docs: z.boolean().default(false),
    doc_files: z.array(text).default([]),
    groups: z.array(PlanGroup).min(1, "must list at least one group"),
    subplans: z.array(Subplan).min(1, "must list at least one subplan"),
    review_strategy: ReviewStrategy.optional(),
  })
  .superRefine((plan, ctx) => {
    const indices = new Map<number, number>();
    plan.subplans.forEach((s, i) => {
      if (indices.has(s.index)) ctx.addIssue({ code: "custom", path: ["subplans", i, "index"], message: `duplicate subplan index ${s.index}` });
      indices.set(s.index, i);
    });
    const groupIds = new Set<string>();
    const referenced = new Set<number>();
    plan.groups.forEach((g, gi) => {
      if (groupIds.has(g.group_id)) ctx.addIssue({ code: "custom", path: ["groups", gi, "group_id"], message: `duplicate group_id "${g.group_id}"` });
      groupIds.add(g.group_id);
      g.plans.forEach((p, pi) => {
        if (referenced.has(p.index))
          ctx.addIssue({ code: "custom", path: ["groups", gi, "plans", pi, "index"], message: `plan ${p.index} is referenced by more than one group entry` });
        referenced.add(p.index);
        if (!indices.has(p.index)) ctx.addIssue({ code: "custom", path: ["groups", gi, "plans", pi, "index"], message: `no subplan has index ${p.index}` });
      });
    });
    plan.subplans.forEach((s, i) => {
      if (!referenced.has(s.index)) ctx.addIssue({ code: "custom", path: ["subplans", i, "index"], message: `subplan ${s.index} is not in any group` });
    });
    // parallel coders must never edit the same file (the planner prompt says so; this enforces it)
    plan.groups.forEach((g, gi) => {
      if (g.mode !== "parallel") return;
      const subs = g.plans.map((p) => ({ ref: p, sub: plan.subplans.find((s) => s.index === p.index) }));
      subs.forEach((x, i) => {
        for (const y of subs.slice(i + 1)) {
          if (!x.sub || !y.sub || x.ref.index === y.ref.index) continue;
          const shared = sharedFiles(x.sub, y.sub);
          if (!shared.length) continue;
          ctx.addIssue({
            code: "custom",
            path: ["groups", gi, "plans"],
            message: `plans ${x.ref.index} (${JSON.stringify(x.ref.name)}) and ${y.ref.index} (${JSON.stringify(y.ref.name)}) run in parallel in group ${JSON.stringify(g.group_id)} but both own ${shared.join(", ")}: give each file to one plan, or put the plans in a serial group`,
          });
        }
      });
    });
    const max = Math.max(...plan.subplans.map((s) => s.index));
    for (let n = 1; n <= max; n++) {
      if (!indices.has(n)) ctx.addIssue({ code: "custom", path: ["subplans"], message: `subplan indices must run 1..${max} without gaps; ${n} is missing` });
    }
  });
export type Plan = z.infer<typeof Plan>;
export type PlanInput = z.input<typeof Plan>;

/**
 * `04_planning/execution_plan.yaml`, derived by the orchestrator from plan.yaml. Whether each
 * referenced plan file exists is checked where the file is read (it needs the folder).
 */
export const ExecutionPlan = z
  .strictObject({
    groups: z
      .array(
        z.strictObject({
          group_id: text,
          mode: z.enum(["serial", "parallel"]),
          plans: z.array(z.strictObject({ file: z.string().regex(/^plan_\d+\.md$/, "must be plan_<N>.md (a file in 04_planning/)"), name: text })).min(1),
        }),
      )
      .min(1),
    // absent in the Python agentmux's loader: false / none, as it read them
    needs_design: z.boolean().default(false),
    needs_docs: z.boolean().default(false),
    doc_files: z.array(z.string()).default([]),
  })
  .superRefine((ep, ctx) => {
    const ids = new Set<string>();
    const files = new Set<string>();
    ep.groups.forEach((g, gi) => {
      if (ids.has(g.group_id)) ctx.addIssue({ code: "custom", path: ["groups", gi, "group_id"], message: `duplicate group_id "${g.group_id}"` });
      ids.add(g.group_id);
      g.plans.forEach((p, pi) => {
        if (files.has(p.file)) ctx.addIssue({ code: "custom", path: ["groups", gi, "plans", pi, "file"], message: `${p.file} is referenced more than once` });
        files.add(p.file);
      });
    });
  });
export type ExecutionPlan = z.infer<typeof ExecutionPlan>;

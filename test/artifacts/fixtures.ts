import YAML from "yaml";

/** A valid plan.yaml v2 object; tests mutate copies of it. */
export function validPlan(): any {
  const sub = (index: number) => ({
    index,
    title: `Part ${index}`,
    scope: "a scope",
    owned_files: [`src/p${index}.ts`],
    dependencies: "none",
    implementation_approach: "straightforward",
    acceptance_criteria: ["it works"],
    tasks: ["write it"],
  });
  return {
    version: 2,
    plan_overview: "Two parts",
    needs_design: false,
    groups: [
      {
        group_id: "g1",
        mode: "parallel",
        plans: [
          { index: 1, name: "one" },
          { index: 2, name: "two" },
        ],
      },
    ],
    subplans: [sub(1), sub(2)],
  };
}

export const yaml = (v: unknown) => YAML.stringify(v);
export const json = (v: unknown) => JSON.stringify(v, null, 2);

export function validDone(over: Record<string, unknown> = {}): any {
  return { status: "SUCCESS", tasks_completed: ["did it"], files_created: [], files_modified: [], tests: { files: 0, cases: 0 }, ...over };
}

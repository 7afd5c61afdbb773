/** A literal plan.yaml (v2) as a planner would write it: one serial subplan, module + test. */
export const PLAN_ONE = `version: 2
plan_overview: Add a greeting helper with tests.
needs_design: false
needs_docs: false
doc_files: []
groups:
  - group_id: g1
    mode: serial
    plans:
      - index: 1
        name: Core greeting module
subplans:
  - index: 1
    title: Core greeting module
    scope: A greeting function.
    owned_files:
      - src/greeting.js
      - test/greeting.test.js
    dependencies: none
    implementation_approach: Small ES module with node:test tests.
    acceptance_criteria:
      - greeting() returns a greeting
    tasks:
      - Create src/greeting.js
      - Add tests in test/greeting.test.js
`;

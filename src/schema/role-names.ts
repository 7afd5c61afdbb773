// no zod here: the command table (every start) needs the names only; catalog.ts builds the schemas

/** Agent roles. Reviewer sub-roles are nominated by the architect. */
export const ROLES = [
  "product-manager",
  "architect",
  "planner",
  "designer",
  "coder",
  "reviewer_logic",
  "reviewer_quality",
  "reviewer_expert",
  "code-researcher",
  "web-researcher",
] as const;
export const REVIEWER_ROLES = ["reviewer_logic", "reviewer_quality", "reviewer_expert"] as const;

import { z } from "zod";

const text = z.string().trim().min(1, "must be a non-empty string");

export const Severity = z.enum(["critical", "high", "medium", "low", "info"]);
export type Severity = z.infer<typeof Severity>;

export const Finding = z.strictObject({
  issue: text,
  recommendation: text,
  location: text.optional(),
  severity: Severity.optional(),
});
export type Finding = z.infer<typeof Finding>;

/** `07_review/review_<role>.yaml`, written by a reviewer before `submit_review`. */
export const Review = z
  .strictObject({
    verdict: z.enum(["pass", "fail"]),
    summary: text,
    findings: z.array(Finding).default([]),
    commit_message: z.string().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.verdict === "fail" && r.findings.length === 0)
      ctx.addIssue({ code: "custom", path: ["findings"], message: "a failing review must list at least one finding" });
  });
export type Review = z.infer<typeof Review>;

/** Severity counts of a review's findings (the orchestrator's audit trail). */
export function severityCounts(findings: Finding[]): Record<Severity | "total", number> {
  const c = { critical: 0, high: 0, medium: 0, low: 0, info: 0, total: 0 };
  for (const f of findings) {
    c[f.severity ?? "medium"]++;
    c.total++;
  }
  return c;
}

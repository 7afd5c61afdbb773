import { z } from "zod";

const text = z.string().trim().min(1, "must be a non-empty string");

export const Severity = z.enum(["critical", "high", "medium", "low", "info"]);
export type Severity = z.infer<typeof Severity>;
/**
 * A severity as reviewers write it: any case (`CRITICAL`, as the seeds' examples write it), kept
 * lower-case. Contracts list the lower-case values (`meta`: the JSON Schema of a pipe's input is
 * a bare string).
 */
export const SeverityAnyCase = z.string().trim().toLowerCase().pipe(Severity).meta({ enum: Severity.options });

export const Finding = z.strictObject({
  issue: text,
  recommendation: text,
  location: text.optional(),
  severity: SeverityAnyCase.optional(),
});
export type Finding = z.infer<typeof Finding>;

/** A comment anchored to lines is short enough for a diff view and a prompt, however many there are. */
export const MAX_COMMENT_TEXT = 4000;
export const MAX_COMMENTS = 100;
/** An anchor spans at most this many lines: a longer one is a finding about a whole block. */
export const MAX_ANCHOR_LINES = 200;

const line = z.number().int().min(1, "must be a line number (1 or more)");

/**
 * A review comment anchored to lines of a changed file, as the file is now: `line`, or
 * `start_line` … `end_line` (inclusive). `file` is relative to the project, as `git diff` shows it.
 */
export const LineComment = z
  .strictObject({
    file: text.max(1000, "must be a path of at most 1000 characters"),
    line: line.optional(),
    start_line: line.optional(),
    end_line: line.optional(),
    severity: SeverityAnyCase,
    body: text.max(MAX_COMMENT_TEXT, `must be at most ${MAX_COMMENT_TEXT} characters`),
    suggestion: z.string().max(MAX_COMMENT_TEXT, `must be at most ${MAX_COMMENT_TEXT} characters`).optional(),
  })
  .superRefine((c, ctx) => {
    const range = c.start_line !== undefined || c.end_line !== undefined;
    if (c.line !== undefined && range) ctx.addIssue({ code: "custom", path: ["line"], message: "give either line or start_line/end_line, not both" });
    else if (c.line === undefined && !range)
      ctx.addIssue({ code: "custom", path: ["line"], message: "required: the line the comment is about (or start_line and end_line for a range)" });
    else if (range && c.start_line === undefined) ctx.addIssue({ code: "custom", path: ["start_line"], message: "required with end_line" });
    else if (range && c.end_line === undefined) ctx.addIssue({ code: "custom", path: ["end_line"], message: "required with start_line" });
    else if (range && c.end_line! < c.start_line!)
      ctx.addIssue({ code: "custom", path: ["end_line"], message: `must not be before start_line (${c.start_line})` });
    else if (range && c.end_line! - c.start_line! + 1 > MAX_ANCHOR_LINES)
      ctx.addIssue({
        code: "custom",
        path: ["end_line"],
        message: `spans more than ${MAX_ANCHOR_LINES} lines; anchor the comment to the lines that matter, or make it a finding`,
      });
  });
export type LineComment = z.infer<typeof LineComment>;

/** The first and last line a comment is anchored to. */
export const anchorLines = (c: Pick<LineComment, "line" | "start_line" | "end_line">): { start: number; end: number } => {
  const start = c.line ?? c.start_line ?? 1;
  return { start, end: c.line ?? c.end_line ?? start };
};

/**
 * The one spelling of a path in the project, as git and the diff write it: `./src//a.ts` and
 * `src/x/../a.ts` → `src/a.ts`; null when absolute, empty or leaving the project. The review
 * check and the comments the run keeps both use it, so that a comment accepted is a comment shown.
 */
export function projectPath(file: string): string | null {
  const t = file.trim();
  if (t.startsWith("/")) return null;
  const parts: string[] = [];
  for (const p of t.split("/")) {
    if (p === "" || p === ".") continue;
    if (p !== "..") parts.push(p);
    else if (!parts.pop()) return null;
  }
  return parts.length ? parts.join("/") : null;
}

/** `07_review/review_<role>.yaml`, written by a reviewer before `submit_review`. */
export const Review = z
  .strictObject({
    verdict: z.enum(["pass", "fail"]),
    summary: text,
    findings: z.array(Finding).default([]),
    comments: z.array(LineComment).max(MAX_COMMENTS, `must hold at most ${MAX_COMMENTS} comments; keep the most important ones`).optional(),
    commit_message: z.string().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.verdict === "fail" && r.findings.length === 0 && !r.comments?.length)
      ctx.addIssue({ code: "custom", path: ["findings"], message: "a failing review must list at least one finding (or a line comment)" });
  });
export type Review = z.infer<typeof Review>;

/** Severity counts of a review's findings and line comments (the orchestrator's audit trail). */
export function severityCounts(findings: { severity?: Severity }[]): Record<Severity | "total", number> {
  const c = { critical: 0, high: 0, medium: 0, low: 0, info: 0, total: 0 };
  for (const f of findings) {
    c[f.severity ?? "medium"]++;
    c.total++;
  }
  return c;
}

import { stringify } from "yaml";
import { Plan } from "../../schema/artifacts/plan.ts";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Review, type Finding, type LineComment } from "../../schema/artifacts/review.ts";
import { isTestFile } from "../code-writer.ts";
import type { ReviewerRole } from "../../schema/catalog.ts";
import { F, reviewYaml } from "../../protocol/paths.ts";
import { moduleSlug, requestLine, sessionSlug } from "../naming.ts";
import { mustCall, writeArtifact, type TaskIO } from "./types.ts";

/** The files the plan owns (for locations), or the default module when there is no plan. */
function ownedFiles(io: TaskIO): string[] {
  try {
    return Plan.parse(io.s.readYaml(F.planYaml)).subplans.flatMap((s) => s.owned_files);
  } catch {
    return [`src/${sessionSlug(io.s)}.js`];
  }
}

/**
 * Two comments anchored to the files as they are now: one on a line of the first source file,
 * one on a range of its test (or of the same file). Lines are clamped to the file's length.
 */
function lineComments(io: TaskIO, files: string[]): LineComment[] {
  const { workDir } = io.s.env;
  const lines = (f: string) => (existsSync(join(workDir, f)) ? readFileSync(join(workDir, f), "utf8").split("\n").length - 1 : 0);
  const source = files.find((f) => !isTestFile(f) && lines(f) > 0) ?? files[0]!;
  const test = files.find((f) => isTestFile(f) && lines(f) > 0) ?? source;
  const n = Math.max(1, lines(source));
  const m = Math.max(1, lines(test));
  return [
    {
      file: source,
      line: Math.min(4, n),
      severity: "medium",
      body: "Empty input is not rejected here: treat an empty string like a missing input.",
      suggestion: `export function guarded(input) { if (!input) throw new Error("input required"); }`,
    },
    { file: test, start_line: Math.min(2, m), end_line: Math.min(4, m), severity: "low", body: "Add a case for the empty input next to these tests." },
  ];
}

/**
 * Reviewer: write 07_review/review_<role>.yaml and submit_review({role}). Scenarios:
 * review_fail_once (reviewer_logic fails its first review), review_fail_always, line_comments
 * (reviewer_logic's first review fails with two line comments), commit_message.
 */
export async function reviewer(io: TaskIO, role: ReviewerRole): Promise<void> {
  // an earlier attempt of this round wrote the review but could not submit it (agentmux was
  // down): each round starts with the review files removed, so an existing one is this round's
  if (io.s.has(reviewYaml(role))) {
    io.say(`● ${reviewYaml(role)} is already written by an earlier attempt; submitting it again`);
    if ((await io.tool("submit_review", { role })).ok) return;
  }
  const { scenario } = io.s.env;
  const files = ownedFiles(io);
  await io.think();
  const anchored = !!scenario.line_comments && role === "reviewer_logic" && io.s.once.take(`line_comments.${role}`);
  const fails =
    anchored || !!scenario.review_fail_always || (!!scenario.review_fail_once && role === "reviewer_logic" && io.s.once.take(`review_fail.${role}`));
  const comments = anchored ? lineComments(io, files) : [];
  const findings: Finding[] =
    fails && !anchored
      ? [
          {
            issue: `${files[0]} does not reject empty input`,
            recommendation: "Treat an empty string like a missing input and add a test for it.",
            location: `${files[0]}:4`,
            severity: "medium",
          },
        ]
      : [];
  const request = requestLine(io.s.readOr(F.requirements, "")) || "the requested feature";
  const review = {
    verdict: fails ? "fail" : "pass",
    summary: fails
      ? `${role} found ${findings.length + comments.length} issue(s) in ${files.join(", ")}.`
      : `${role} checked ${files.join(", ")}: the change does what was asked.`,
    findings,
    ...(comments.length ? { comments } : {}),
    ...(scenario.commit_message
      ? { commit_message: `feat: ${request.charAt(0).toLowerCase()}${request.slice(1)}`.slice(0, 72) || `feat: ${moduleSlug(request)}` }
      : {}),
  };
  Review.parse(review);
  writeArtifact(io, reviewYaml(role), stringify(review));
  await io.think();
  await mustCall(io, "submit_review", { role });
}

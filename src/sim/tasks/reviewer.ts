import { stringify } from "yaml";
import { Plan } from "../../schema/artifacts/plan.ts";
import { Review, type Finding } from "../../schema/artifacts/review.ts";
import type { ReviewerRole } from "../../schema/catalog.ts";
import { F, reviewYaml } from "../../session/paths.ts";
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
 * Reviewer: write 07_review/review_<role>.yaml and submit_review({role}). Scenarios:
 * review_fail_once (reviewer_logic fails its first review), review_fail_always, commit_message.
 */
export async function reviewer(io: TaskIO, role: ReviewerRole): Promise<void> {
  const { scenario } = io.s.env;
  const files = ownedFiles(io);
  await io.think();
  const fails = !!scenario.review_fail_always || (!!scenario.review_fail_once && role === "reviewer_logic" && io.s.once.take(`review_fail.${role}`));
  const findings: Finding[] = fails
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
      ? `${role} found ${findings.length} issue(s) in ${files.join(", ")}.`
      : `${role} checked ${files.join(", ")}: the change does what was asked.`,
    findings,
    ...(scenario.commit_message ? { commit_message: `feat: ${request.charAt(0).toLowerCase()}${request.slice(1)}`.slice(0, 72) || `feat: ${moduleSlug(request)}` } : {}),
  };
  Review.parse(review);
  writeArtifact(io, reviewYaml(role), stringify(review));
  await io.think();
  await mustCall(io, "submit_review", { role });
}

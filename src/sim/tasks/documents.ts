import { F } from "../../protocol/paths.ts";
import { requestLine } from "../naming.ts";
import { mustCall, writeArtifact, type TaskIO } from "./types.ts";

/** Product manager: rewrite requirements.md with acceptance criteria, then submit_pm_done. */
export async function productManager(io: TaskIO): Promise<void> {
  const req = io.s.readOr(F.requirements, "");
  await io.think();
  const request = requestLine(req) || "the requested feature";
  let out = req.trimEnd();
  if (!/^## Acceptance Criteria/m.test(out)) {
    out += [
      "",
      "",
      "## Scenarios",
      "",
      `- A user asks for: ${request}. The feature does exactly that and nothing else.`,
      "",
      "## Acceptance Criteria",
      "",
      `- [ ] ${request} works as described, with a test that proves it.`,
      "- [ ] Existing behaviour and tests keep working.",
      "",
      "## Out of Scope",
      "",
      "- Anything the request does not mention.",
    ].join("\n");
  }
  writeArtifact(io, F.requirements, out + "\n");
  await io.think();
  await mustCall(io, "submit_pm_done", {});
}

/** Designer: write 05_design/design.md (the orchestrator watches for it; no tool). */
export async function designer(io: TaskIO): Promise<void> {
  const plan = io.s.readOr(F.planMd, "");
  const overview = plan.trim().split("\n")[0] || "the planned feature";
  await io.think();
  writeArtifact(
    io,
    F.design,
    [
      "# Design",
      "",
      `Designed for: ${overview.replace(/^#+\s*/, "")}`,
      "",
      "## Component structure",
      "- One presentational component per user-facing piece; no business logic.",
      "",
      "## Layout and visual system",
      "- A single column, 8px spacing grid, system font stack.",
      "",
      "## States",
      "- Initial, loading, error and empty states each have a short message.",
      "",
      "## Accessibility",
      "- Every control is reachable by keyboard and has a label.",
      "",
      "## Integration",
      "- Coders apply these rules in the owned files of their subplan.",
      "",
    ].join("\n"),
  );
}

/** Summary: write 08_completion/summary.md from the requirements, plan and review. */
export async function summary(io: TaskIO): Promise<void> {
  const request = requestLine(io.s.readOr(F.requirements, "")) || "the requested feature";
  const plan = io.s.readOr(F.planMd, "").trim();
  const review = io.s.readOr(F.reviewMd, "").trim();
  const verdict = /verdict:\s*(pass|fail)/.exec(review)?.[1] ?? "pass";
  await io.think();
  writeArtifact(
    io,
    F.summary,
    [
      "# Summary",
      "",
      "## What was implemented",
      "",
      `- ${request}`,
      ...(plan ? ["", plan.split("\n").slice(0, 5).join("\n")] : []),
      "",
      "## Key decisions",
      "",
      "- Kept the change inside the files the plan assigned.",
      "",
      "## Deviations from plan",
      "",
      "- None.",
      "",
      `Review verdict: ${verdict}.`,
      "",
    ].join("\n"),
  );
}

import { join } from "node:path";
import type { ArtifactKind, ArtifactValue, Problem } from "../artifacts/kinds.ts";
import { readArtifactBytes } from "../artifacts/parse.ts";
import { formatProblem } from "../artifacts/problems.ts";
import { REVIEWER_ROLES, type ReviewerRole, type Role, type ToolName } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";
import type { ResearchType } from "../schema/artifacts/research.ts";
import type { LineComment } from "../schema/artifacts/review.ts";
import type { Snapshot, ToolInput, ToolPayload } from "../schema/tool-events.ts";
import { F, doneArtifact, researchDir, reviewYaml } from "../protocol/paths.ts";
import { writeSnapshot } from "./snapshot.ts";

/** A tool's verdict on the agent-written file: the payload to append and a reply, or a refusal. */
export type ToolOutcome<T extends ToolName = ToolName> = { ok: true; payload: ToolPayload<T>; text: string } | { ok: false; message: string };

/** What a handler knows: the session, the caller's role (from its token), the run's state, and where the caller works. */
export type ToolContext = { sessionDir: string; role: Role; state: State; workDir: string };

/** Each tool's handler, typed by its name: it gets that tool's validated input and returns that tool's payload. */
export type ToolHandlers = { [T in ToolName]: (ctx: ToolContext, input: ToolInput<T>) => Promise<ToolOutcome<T>> };

type Refusal = { ok: false; message: string };

function refusedFile(tool: string, file: string, problems: Problem[], retry: string): Refusal {
  const lines = problems.map((p) => `  ${formatProblem(p)}`).join("\n");
  return {
    ok: false,
    message: `${tool} was refused: ${file} has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}:\n${lines}\nNothing was recorded. ${retry}`,
  };
}

type Checked<K extends ArtifactKind> = { ok: true; value: ArtifactValue<K>; bytes: Buffer; rel: string };

async function checkFile<K extends ArtifactKind>(
  tool: string,
  ctx: ToolContext,
  kind: K,
  rel: string,
  retry = `Fix ${rel} and call ${tool} again.`,
): Promise<Refusal | Checked<K>> {
  const file = join(ctx.sessionDir, rel);
  const r = await readArtifactBytes(kind, file);
  return r.ok ? { ok: true, value: r.value, bytes: r.bytes, rel } : refusedFile(tool, file, r.problems, retry);
}

/** Line comments must point into the run's diff (git is loaded only for a review that has some). */
async function lineCommentProblems(comments: LineComment[], ctx: ToolContext): Promise<Problem[]> {
  const { anchorProblems, runDiff } = await import("../artifacts/anchors.ts");
  return anchorProblems(comments, await runDiff(ctx.workDir, ctx.sessionDir));
}

/** Keep the validated bytes: the orchestrator applies this copy, not the file as it is later. */
const keep = (ctx: ToolContext, c: Checked<ArtifactKind>): Snapshot => writeSnapshot(ctx.sessionDir, c.bytes, c.rel);

function dispatch<T extends ResearchType>(type: T) {
  return async (_ctx: ToolContext, input: ToolInput<"research_dispatch_code">) => ({
    ok: true as const,
    payload: { ...input, research_type: type },
    text: `${type} research on "${input.topic}" dispatched; its summary will appear in ${researchDir(type, input.topic)}/summary.md.`,
  });
}

export const TOOL_HANDLERS: ToolHandlers = {
  async submit_pm_done() {
    return { ok: true, payload: {}, text: "Product management recorded as done." };
  },
  async submit_architecture(ctx, input) {
    const c = await checkFile("submit_architecture", ctx, "architecture", F.architecture);
    if (!c.ok) return c;
    const reviewers = input.reviewers ? [...new Set(input.reviewers)] : undefined;
    return { ok: true, payload: reviewers ? { reviewers } : {}, text: `Architecture accepted${reviewers ? ` (reviewers: ${reviewers.join(", ")})` : ""}.` };
  },
  async submit_plan(ctx) {
    const c = await checkFile("submit_plan", ctx, "plan", F.planYaml);
    if (!c.ok) return c;
    return { ok: true, payload: { snapshot: keep(ctx, c) }, text: "Plan accepted." };
  },
  async submit_review(ctx, input) {
    const own = (REVIEWER_ROLES as readonly string[]).includes(ctx.role) ? (ctx.role as ReviewerRole) : undefined;
    const role = input.role ?? own;
    if (!role) return { ok: false, message: `submit_review was refused: pass \`role\` (one of ${REVIEWER_ROLES.join(", ")}). Nothing was recorded.` };
    if (own && role !== own)
      return { ok: false, message: `submit_review was refused: you are ${own} and cannot submit the review of ${role}. Nothing was recorded.` };
    const c = await checkFile("submit_review", ctx, "review", reviewYaml(role));
    if (!c.ok) return c;
    const comments = c.value.comments ?? [];
    if (comments.length) {
      const bad = await lineCommentProblems(comments, ctx);
      if (bad.length)
        return refusedFile(
          "submit_review",
          join(ctx.sessionDir, c.rel),
          bad,
          `Anchor each comment to lines of a file the run changed, as the file is now (fix ${reviewYaml(role)}), and call submit_review again.`,
        );
    }
    const n = c.value.findings.length;
    const counted = [n ? `${n} finding${n === 1 ? "" : "s"}` : "", comments.length ? `${comments.length} line comment${comments.length === 1 ? "" : "s"}` : ""]
      .filter(Boolean)
      .join(", ");
    return {
      ok: true,
      payload: { role, snapshot: keep(ctx, c) },
      text: `Review recorded for ${role}: verdict ${c.value.verdict}${counted ? ` (${counted})` : ""}.`,
    };
  },
  async submit_done(ctx, input) {
    const n = input.subplan_index;
    const rel = doneArtifact(n);
    const c = await checkFile("submit_done", ctx, "done", rel, `Write ${rel} as your completion artifact and call submit_done again.`);
    if (!c.ok) return c;
    // isomorphic-git is loaded only when a coder submits
    const { doneGateProblems } = await import("../artifacts/done-gate.ts");
    const problems = await doneGateProblems(c.value, { state: ctx.state, sessionDir: ctx.sessionDir, workDir: ctx.workDir, subplanIndex: n });
    if (problems.length) {
      const unfinished = problems.some((p) => p.path === "status");
      return refusedFile(
        "submit_done",
        join(ctx.sessionDir, rel),
        problems,
        unfinished ? "Do what the lines above say." : `Make the claims true (do the work, or correct ${rel}) and call submit_done again.`,
      );
    }
    const partial = c.value.status === "PARTIAL" ? " (PARTIAL: the plan allows it)" : "";
    return { ok: true, payload: { subplan_index: n, snapshot: keep(ctx, c) }, text: `Subplan ${n} accepted as done${partial}.` };
  },
  async submit_research_done(ctx, input) {
    const mine = ctx.role === "code-researcher" ? "code" : ctx.role === "web-researcher" ? "web" : undefined;
    if (mine && mine !== input.type)
      return {
        ok: false,
        message: `submit_research_done was refused: you are the ${ctx.role} and cannot finish ${input.type} research. Nothing was recorded.`,
      };
    const c = await checkFile("submit_research_done", ctx, "summary", `${researchDir(input.type, input.topic)}/summary.md`);
    if (!c.ok) return c;
    return {
      ok: true,
      payload: { topic: input.topic, type: input.type, role_type: `${input.type}-researcher` },
      text: `Research "${input.topic}" recorded as done.`,
    };
  },
  research_dispatch_code: dispatch("code"),
  research_dispatch_web: dispatch("web"),
};

import { F, researchDir } from "../../protocol/paths.ts";
import { requestLine, sessionSlug } from "../naming.ts";
import { mustCall, writeArtifact, type TaskIO } from "./types.ts";

const RESEARCH_TOPIC = "existing-code";

/**
 * Architect: (scenario `research`: dispatch a code-research topic and wait for the
 * orchestrator's notice) → write 02_architecting/architecture.md → submit_architecture.
 */
export async function architect(io: TaskIO): Promise<void> {
  const { scenario } = io.s.env;
  const summaryRel = `${researchDir("code", RESEARCH_TOPIC)}/summary.md`;
  let research = "";
  if (scenario.research) {
    if (!io.s.has(summaryRel)) {
      await io.think();
      await mustCall(io, "research_dispatch_code", {
        topic: RESEARCH_TOPIC,
        context: `Architecture for: ${requestLine(io.s.readOr(F.requirements, "")) || "the request"}`,
        questions: ["Which modules and conventions does the existing code use?", "Where do tests live and how are they run?"],
        scope_hints: ["src/", "test/"],
      });
      io.say(`● waiting for research on ${RESEARCH_TOPIC}`);
      const notice = await io.waitForNotice(`research on ${RESEARCH_TOPIC}`);
      io.say(`● research notice: ${notice.slice(0, 100)}`);
    }
    research = io.s.readOr(summaryRel, "").trim();
  }
  await io.think();
  const request = requestLine(io.s.readOr(F.requirements, "")) || "the requested feature";
  const slug = sessionSlug(io.s);
  const needsDesign = scenario.design ? "yes — the plan must set needs_design: true" : "no";
  writeArtifact(
    io,
    F.architecture,
    [
      "# Architecture",
      "",
      "## Solution overview",
      `${request}. A small module \`src/${slug}.js\` carries the behaviour; \`test/${slug}.test.js\` proves it.`,
      "",
      "## Components",
      `- \`${slug}\`: a pure function with a default input.`,
      "",
      "## Interfaces",
      `- \`${slug}(input?: string): string\``,
      "",
      "## Data models",
      "- None beyond strings.",
      "",
      "## Cross-cutting concerns",
      "- No I/O; deterministic output; node:test for tests.",
      "",
      "## Technology choices",
      "- Plain ES modules, no new dependencies.",
      "",
      "## Risks",
      "- Low: the change is additive.",
      "",
      `## Needs design`,
      needsDesign,
      ...(research ? ["", "## Research used", "", research] : []),
      "",
    ].join("\n"),
  );
  await io.think();
  await mustCall(io, "submit_architecture", { reviewers: scenario.reviewers ?? ["reviewer_logic"] });
}

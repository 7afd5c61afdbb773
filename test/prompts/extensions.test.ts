import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderPrompt } from "../../src/prompts/render.ts";
import { removeDir } from "../helpers/tmp.ts";
import { CASES, makeSession, options, type Fixture } from "./fixture.ts";

let f: Fixture;
afterEach(() => removeDir(f.root));

function extension(rel: string, text: string) {
  const path = join(f.projectDir, ".agentmux", "prompts", rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

const BY_FILE: Record<string, string> = {
  "agents/coder.md": "CODER-EXT",
  "agents/architect.md": "ARCHITECT-EXT",
  "agents/reviewer_quality.md": "QUALITY-EXT",
  "agents/reviewer.md": "ALL-REVIEWERS-EXT",
  "commands/fix.md": "FIX-CMD-EXT",
};

/** Which extension markers each rendered prompt must carry; every other marker must be absent. */
const EXPECTED: Record<string, string[]> = {
  context: [],
  "product-manager": [],
  architect: ["ARCHITECT-EXT"],
  planner: [],
  change: [],
  designer: [],
  coder: ["CODER-EXT"],
  "coder-whole": ["CODER-EXT"],
  reviewer_logic: ["ALL-REVIEWERS-EXT"],
  reviewer_quality: ["ALL-REVIEWERS-EXT", "QUALITY-EXT"],
  reviewer_expert: ["ALL-REVIEWERS-EXT"],
  "review-followup": ["ALL-REVIEWERS-EXT"],
  fix: ["CODER-EXT", "FIX-CMD-EXT"],
  summary: ["ALL-REVIEWERS-EXT"],
  "code-researcher": [],
  "web-researcher": [],
};

test("project extensions appear in the right role's prompts only", () => {
  f = makeSession();
  for (const [rel, marker] of Object.entries(BY_FILE)) extension(rel, `Follow ${marker}.`);
  for (const c of CASES) {
    const out = renderPrompt(options(f, c));
    for (const marker of Object.values(BY_FILE)) {
      const want = EXPECTED[c.template]!.includes(marker);
      expect({ template: c.template, marker, present: out.includes(marker) }).toEqual({ template: c.template, marker, present: want });
    }
  }
});

test("approved preferences reach the target role's prompt, including follow-up reviews", () => {
  f = makeSession();
  extension("agents/reviewer_expert.md", "## Approved Preferences\n- Always check file permissions on written secrets\n");
  const followup = renderPrompt(
    options(f, { template: "review-followup", role: "reviewer_expert", vars: { review_role: "reviewer_expert", review_iteration: "1" } }),
  );
  expect(followup).toContain("## Approved Preferences\n- Always check file permissions on written secrets");
  const expert = renderPrompt(options(f, { template: "reviewer_expert", role: "reviewer_expert", vars: { review_iteration: "0" } }));
  expect(expert).toContain("Always check file permissions");
  for (const c of CASES.filter((c) => c.role !== "reviewer_expert")) expect(renderPrompt(options(f, c))).not.toContain("Always check file permissions");
});

test("without extensions the slot says so", () => {
  f = makeSession();
  expect(
    renderPrompt(
      options(
        f,
        CASES.find((c) => c.template === "coder")!,
      ),
    ),
  ).toContain("None for this project.");
});

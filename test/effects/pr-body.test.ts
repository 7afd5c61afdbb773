import { expect, test } from "bun:test";
import { prBody } from "../../src/effects/gh.ts";

// The summary agents write starts with its own "# Summary": under the body's "## Summary" it
// read as a second, bigger title, and its sections outranked the body's own.
test("a part's own headings sit under the part's: a repeated title goes, the others move down", () => {
  const summary = "# Summary\n\n## What was implemented\n\n- greet(name)\n\n```md\n# not a heading: inside a code block\n```\n";
  const body = prBody({ summary, requirements: "# Add a greeting\n\nPlease.", planSummary: "One module.", reviewVerdict: "pass" });
  const lines = body.split("\n");
  expect(lines.filter((l) => /^#+ Summary$/.test(l))).toEqual(["## Summary"]);
  expect(lines).toContain("### What was implemented");
  expect(lines).toContain("# not a heading: inside a code block");
  expect(lines).toContain("### Add a greeting");
  expect(lines.filter((l) => /^#{1,2} /.test(l) && !l.includes("inside a code block"))).toEqual([
    "## Summary",
    "## Initial Request",
    "## Plan Summary",
    "## Review Verdict",
  ]);
});

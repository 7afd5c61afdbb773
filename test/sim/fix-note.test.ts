import { expect, test } from "bun:test";
import { fixNote } from "../../src/sim/tasks/fix-note.ts";
import { commentsOfReview } from "../../src/orchestrator/line-comments.ts";
import { fixRequestMarkdown, reviewResult } from "../../src/orchestrator/review-files.ts";
import type { Review } from "../../src/schema/artifacts/review.ts";

/**
 * The simulated fixer writes a note of what it fixes into the code it changes (the approval
 * panel's diff shows it). From the fix request the orchestrator writes, it read the
 * summary's "found 1 issue(s) in …" and wrote "fix round 1: s) in src/greeting.js".
 */
const request = (review: Review) => {
  const comments = commentsOfReview("reviewer_logic", review, 1, []);
  return fixRequestMarkdown(
    {
      reviewer_logic: reviewResult(review, "07_review/review_1_reviewer_logic.md", comments),
      reviewer_quality: reviewResult(
        { verdict: "pass", summary: "reviewer_quality checked src/greeting.js: the change does what was asked.", findings: [] },
        "q.md",
      ),
    },
    1,
  );
};

test("a failing review with findings (review_fail_once): the note is the first finding's issue", () => {
  const review: Review = {
    verdict: "fail",
    summary: "reviewer_logic found 1 issue(s) in src/greeting.js, test/greeting.test.js.",
    findings: [
      {
        issue: "src/greeting.js does not reject empty input",
        recommendation: "Treat an empty string like a missing input.",
        location: "src/greeting.js:4",
        severity: "medium",
      },
    ],
  };
  expect(fixNote(1, request(review))).toBe("fix round 1: src/greeting.js does not reject empty input");
});

test("a failing review with line comments only (line_comments): the note is the first comment, where it points, cut at a word", () => {
  const review: Review = {
    verdict: "fail",
    summary: "reviewer_logic found 2 issue(s) in src/greeting.js, test/greeting.test.js.",
    findings: [],
    comments: [
      { file: "src/greeting.js", line: 4, severity: "medium", body: "Empty input is not rejected here: treat an empty string like a missing input." },
      { file: "test/greeting.test.js", start_line: 2, end_line: 4, severity: "low", body: "Add a case for the empty input next to these tests." },
    ],
  };
  expect(fixNote(2, request(review))).toBe("fix round 2: src/greeting.js line 4: Empty input is not rejected here: treat an empty string like a missing…");
});

test("a request with neither: a plain note", () => {
  expect(fixNote(1, "# Fix Request\n")).toBe("fix round 1: the review findings");
});

test("a request whose only finding is a failing check (check_bug): the note names the check", () => {
  expect(fixNote(1, "# Fix Request\n\n# Failing checks\n\n## Check: test — failed (exit 1)\n\n- Command: `npm test`\n")).toBe(
    "fix round 1: make the check test pass (it failed (exit 1))",
  );
});

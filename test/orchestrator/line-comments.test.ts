import { expect, test } from "bun:test";
import { commentsOfReview } from "../../src/orchestrator/line-comments.ts";
import { projectPath, Review } from "../../src/schema/artifacts/review.ts";

/**
 * #14.1: a comment the review check accepts is kept under the path the diff and the panel use;
 * `src/./app.js` was accepted (the check normalised it) but kept as written, so the panel never
 * showed it under src/app.js and the fix prompt gave it a heading of its own.
 */
test("every spelling of a project path is kept as the diff writes it", () => {
  const review = Review.parse({
    verdict: "fail",
    summary: "s",
    comments: ["src/./app.js", "./src//app.js", "src/lib/../app.js", " src/app.js "].map((file, i) => ({ file, line: i + 1, severity: "high", body: "b" })),
  });
  expect(commentsOfReview("reviewer_logic", review, 1, []).map((c) => c.file)).toEqual(["src/app.js", "src/app.js", "src/app.js", "src/app.js"]);
});

test("projectPath: one spelling, or null when absolute, empty or outside the project", () => {
  expect(projectPath("./a/./b//c.ts")).toBe("a/b/c.ts");
  expect(projectPath("a/x/../b.ts")).toBe("a/b.ts");
  for (const bad of ["/etc/passwd", "../x", "a/../../x", ".", "", "  "]) expect(projectPath(bad)).toBeNull();
});

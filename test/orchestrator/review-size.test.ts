import { expect, test } from "bun:test";
import { State } from "../../src/schema/state.ts";
import { apply, ofType } from "./fixtures.ts";
import { reach } from "./reach.ts";

/**
 * #18.20: a huge review (a 20 MB summary) is kept in full in its archive file, referenced from
 * state.json — never stored in state.json twice (summary + rendered text), which made every
 * later state write serialize 40 MB.
 */
test("a 20 MB review summary: state.json stays small and names the archive; the archive and the fix request keep it reachable", () => {
  const { state, ev } = reach("reviewing"); // reviewers logic + quality, round 1
  const huge = `BIG-START ${"x".repeat(20 * 1024 * 1024)} BIG-END`;
  const submitted = ev.review("reviewer_logic", "fail");
  if (submitted.type !== "review_submitted") throw new Error("not a review");
  let r = apply(state, { ...submitted, review: { ...submitted.review, summary: huge } });
  const archive = ofType(r.effects, "write_file").find((e) => e.path === "07_review/review_0_reviewer_logic.md")!;
  expect(archive.content).toContain("BIG-END"); // the full review, once, in its file
  const stored = r.state.review_results!.reviewer_logic!;
  expect(stored.file).toBe("07_review/review_0_reviewer_logic.md");
  expect(JSON.stringify(State.parse({ ...r.state, outbox: undefined })).length).toBeLessThan(200_000);

  r = apply(r.state, ev.review("reviewer_quality", "pass"));
  expect(r.state.phase).toBe("fixing");
  expect(JSON.stringify(State.parse({ ...r.state, outbox: undefined })).length).toBeLessThan(200_000);
  const fix = ofType(r.effects, "write_file").find((e) => e.path === "07_review/fix_request.md")!.content;
  expect(fix.length).toBeLessThan(200_000);
  expect(fix).toContain("BIG-START");
  expect(fix).toContain("the rest is in 07_review/review_0_reviewer_logic.md");
});

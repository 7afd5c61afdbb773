import { describe, expect, test } from "bun:test";
import type { Event } from "../../src/schema/events.ts";
import type { Review } from "../../src/schema/artifacts/review.ts";
import { apply, ofType } from "./fixtures.ts";
import { reach } from "./reach.ts";

/** #14.1: a review's line comments get ids, go to the fix round with a baseline, and the fixer's addressed ones are recorded. */
const review = (verdict: "pass" | "fail", comments: Review["comments"]): Review => ({ verdict, summary: `says ${verdict}`, findings: [], comments });

const TWO: Review["comments"] = [
  { file: "./src/part1.ts", line: 4, severity: "medium", body: "  Empty input is not rejected.  ", suggestion: "if (!x) throw new Error();\n" },
  { file: "src/part1.test.ts", start_line: 2, end_line: 5, severity: "low", body: "Add a case." },
];

describe("line comments through the review loop", () => {
  test("ids per reviewer, the fix request lists them, fixing records a baseline first and marks what the fixer addressed", () => {
    const { state, ev } = reach("reviewing");
    const at = () => new Date(Date.parse(state.updated_at) + 1000).toISOString();
    let r = apply(state, { type: "review_submitted", at: at(), role: "reviewer_quality", review: review("pass", [{ file: "src/part1.ts", line: 1, severity: "info", body: "Nice." }]) });
    r = apply(r.state, { type: "review_submitted", at: at(), role: "reviewer_logic", review: review("fail", TWO) });
    expect(r.state.phase).toBe("fixing");
    expect(r.state.review_comments).toEqual([
      { id: "quality-1", reviewer: "reviewer_quality", round: 1, blocking: false, file: "src/part1.ts", start_line: 1, end_line: 1, severity: "info", body: "Nice." },
      { id: "logic-1", reviewer: "reviewer_logic", round: 1, blocking: true, file: "src/part1.ts", start_line: 4, end_line: 4, severity: "medium", body: "Empty input is not rejected.", suggestion: "if (!x) throw new Error();" },
      { id: "logic-2", reviewer: "reviewer_logic", round: 1, blocking: true, file: "src/part1.test.ts", start_line: 2, end_line: 5, severity: "low", body: "Add a case." },
    ]);
    const fix = ofType(r.effects, "write_file").find((e) => e.path === "07_review/fix_request.md")!.content;
    expect(fix).toContain("- [logic-1] src/part1.ts line 4 (medium): Empty input is not rejected.");
    expect(fix).toContain("- [logic-2] src/part1.test.ts lines 2–5 (low): Add a case.");
    expect(r.state.review_results!.reviewer_logic!.counts).toMatchObject({ medium: 1, low: 1, total: 2 });
    // the baseline comes before the fixer is launched: its edits cannot be in it
    const kinds = r.effects.map((e) => e.type);
    const baseline = ofType(r.effects, "record_baseline");
    expect(baseline).toEqual([{ type: "record_baseline", path: "07_review/baseline_1.json", round: 1, files: ["src/part1.ts", "src/part1.test.ts"] }]);
    expect(kinds.indexOf("record_baseline")).toBeLessThan(kinds.indexOf("launch_agent"));

    const done: Event = {
      type: "coder_done",
      at: at(),
      subplan_index: 1,
      artifact: { status: "SUCCESS", tasks_completed: ["fix"], files_created: [], files_modified: ["src/part1.ts"], tests: { files: 0, cases: 0 }, comments_addressed: ["logic-1", "quality-1", "nope"] },
    };
    r = apply(r.state, done);
    expect(r.state.phase).toBe("reviewing");
    const byId = Object.fromEntries(r.state.review_comments!.map((c) => [c.id, c.addressed_in]));
    expect(byId).toEqual({ "quality-1": 1, "logic-1": 1, "logic-2": undefined });
    expect(ofType(r.effects, "log").filter((e) => e.note === "fix_round").map((e) => e.data)).toEqual([{ round: 1, addressed: ["quality-1", "logic-1"], not_addressed: ["logic-2"] }]);

    // round 2: a new comment of the same reviewer continues its numbering
    r = apply(r.state, { type: "review_submitted", at: at(), role: "reviewer_logic", review: review("fail", [{ file: "src/part1.ts", line: 9, severity: "high", body: "Still wrong." }]) });
    r = apply(r.state, { type: "review_submitted", at: at(), role: "reviewer_quality", review: review("pass", []) });
    expect(r.state.review_comments!.map((c) => `${c.id}@${c.round}`)).toEqual(["quality-1@1", "logic-1@1", "logic-2@1", "logic-3@2"]);
    expect(ofType(r.effects, "record_baseline")).toEqual([{ type: "record_baseline", path: "07_review/baseline_2.json", round: 2, files: ["src/part1.ts"] }]);
  });

  test("a fix round without line comments records no baseline; older reviews (no comments) leave state as before", () => {
    const { state, ev } = reach("reviewing");
    let r = apply(state, ev.review("reviewer_quality", "pass"));
    r = apply(r.state, ev.review("reviewer_logic", "fail"));
    expect(r.state.phase).toBe("fixing");
    expect(r.state.review_comments).toBeUndefined();
    expect(ofType(r.effects, "record_baseline")).toEqual([]);
  });
});

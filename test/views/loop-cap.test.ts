import { expect, test } from "bun:test";
import { loopCapLines } from "../../src/views/loop-cap.ts";

const finding = (i: number) => ({ reviewer: "reviewer_logic", severity: "high", location: `src/a.ts:${i}`, issue: `bug ${i}` });

test("the CI result says whether the loop cap failed the run or committed anyway, with the open findings", () => {
  expect(loopCapLines(undefined)).toEqual([]);
  expect(loopCapLines({ iterations: 1, decision: "ask", open_findings: [finding(1)] })).toEqual([]);
  expect(loopCapLines({ iterations: 2, decision: "fail", open_findings: [finding(1), { reviewer: "reviewer_quality", issue: "no tests" }] })).toEqual([
    "not committed: the review loop stopped after 2 fix round(s) with 2 open finding(s):",
    "  reviewer_logic · high · src/a.ts:1 · bug 1",
    "  reviewer_quality · no tests",
  ]);
  const many = loopCapLines({ iterations: 3, decision: "commit", open_findings: Array.from({ length: 23 }, (_, i) => finding(i)) });
  expect(many[0]).toBe(
    "committed with failing reviews: the review loop stopped after 3 fix round(s) and defaults.completion.commit_on_loop_cap is set; 23 open finding(s):",
  );
  expect(many.length).toBe(22);
  expect(many.at(-1)).toBe("  … and 3 more (see 08_completion/summary.md in the session)");
});

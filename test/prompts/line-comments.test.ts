import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { renderPrompt } from "../../src/prompts/render.ts";
import { contextLines, fenceFor, lineCommentsMarkdown, parseLineComments } from "../../src/schema/artifacts/line-comments-md.ts";
import type { ReviewComment } from "../../src/schema/state.ts";
import { removeDir } from "../helpers/tmp.ts";
import { caseFor, makeSession, options, type Fixture } from "./fixture.ts";

/** #14.1: the fixer sees each line comment of its round grouped by file, with the lines around it as the file is now. */
let f: Fixture;
afterEach(() => removeDir(f.root));

const comment = (over: Partial<ReviewComment>): ReviewComment => ({
  id: "logic-1",
  reviewer: "reviewer_logic",
  round: 1,
  blocking: true,
  file: "src/store.ts",
  start_line: 5,
  end_line: 5,
  severity: "high",
  body: "Not atomic.",
  ...over,
});

function withWork(rel: string, text: string) {
  mkdirSync(dirname(join(f.workDir, rel)), { recursive: true });
  writeFileSync(join(f.workDir, rel), text);
}

describe("the fix prompt's line comments", () => {
  test("grouped by file, with 3 lines of context each, the commented lines marked; only this round's comments", () => {
    f = makeSession();
    withWork("src/store.ts", Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    withWork("test/store.test.ts", "t1\nt2\nt3\n");
    const comments = [
      comment({}),
      comment({
        id: "quality-1",
        reviewer: "reviewer_quality",
        blocking: false,
        file: "test/store.test.ts",
        start_line: 2,
        end_line: 3,
        severity: "low",
        body: "Add a case.",
      }),
      comment({ id: "logic-2", start_line: 11, end_line: 12, body: "Off by one.", suggestion: "```js\nfix()\n```" }),
      comment({ id: "logic-0", round: 0, body: "OLD-ROUND" }),
    ];
    f.write("state.json", JSON.stringify({ review_iteration: 1, review_comments: comments }));
    const out = renderPrompt(options(f, caseFor("fix")));
    const section = out.slice(out.indexOf("## Line comments"), out.indexOf("## Background"));
    expect(section).not.toContain("OLD-ROUND");
    // one heading per file, in the order files first appear; both store.ts comments under it
    expect(section.match(/^### `src\/store\.ts`$/gm)).toHaveLength(1);
    expect(section.indexOf("### `src/store.ts`")).toBeLessThan(section.indexOf("### `test/store.test.ts`"));
    expect(section).toContain("#### [logic-1] line 5 · high · reviewer_logic · must be addressed");
    expect(section).toContain(["  2 │ line 2", "  3 │ line 3", "  4 │ line 4", "▶ 5 │ line 5", "  6 │ line 6", "  7 │ line 7", "  8 │ line 8"].join("\n"));
    expect(section).toContain("#### [quality-1] lines 2–3 · low · reviewer_quality · suggestion");
    expect(section).toContain(["  1 │ t1", "▶ 2 │ t2", "▶ 3 │ t3"].join("\n"));
    expect(section).toContain("▶ 12 │ line 12");
    // a suggestion holding a ``` fence gets a longer fence of its own
    expect(section).toContain("````suggestion\n```js\nfix()\n```\n````");
    // the fixer is told how to report what it addressed
    expect(out).toContain("comments_addressed");
  });

  test("no comments in the round: the section says so; the follow-up review shows which the fixer addressed", () => {
    f = makeSession();
    expect(renderPrompt(options(f, caseFor("fix")))).toContain("No line comments in this round.");
    withWork("src/store.ts", "a\nb\nc\nd\ne\n");
    f.write(
      "state.json",
      JSON.stringify({ review_iteration: 2, review_comments: [comment({ round: 2, addressed_in: 2 }), comment({ id: "logic-2", round: 2 })] }),
    );
    const out = renderPrompt(options(f, caseFor("review-followup")));
    expect(out).toContain("#### [logic-1] line 5 · high · reviewer_logic · addressed by the fixer");
    expect(out).toContain("#### [logic-2] line 5 · high · reviewer_logic · must be addressed");
  });
});

describe("the Markdown form round-trips (changes.md, the fix prompt)", () => {
  test("render → parse gives the comments back: ids, ranges, tags, bodies with code, suggestions", () => {
    const lines = ["a", "b", "c", "d"];
    const comments = [
      {
        id: "user-1",
        file: "src/a.js",
        start_line: 2,
        end_line: 2,
        severity: "medium",
        by: "you",
        body: "First line.\n\nSecond paragraph with `code`:\n\n```\nx = 1\n```",
      },
      { file: "src/b.js", start_line: 1, end_line: 3, body: "No id, no tags." },
      { id: "gh-2", file: "src/a.js", start_line: 4, end_line: 4, severity: "low", by: "@octo", note: "must be addressed", body: "Fix.", suggestion: "d2" },
    ];
    const md = "Please also rename things.\n\n" + lineCommentsMarkdown(comments, () => lines);
    const back = parseLineComments(md);
    expect(back).toEqual([comments[0]!, comments[2]!, comments[1]!]);
  });

  test("context is clamped to the file; a fence outgrows the backticks inside", () => {
    expect(contextLines(["x", "y"], 1, 1)).toEqual(["▶ 1 │ x", "  2 │ y"]);
    expect(fenceFor("no ticks")).toBe("```");
    expect(fenceFor("a ```` b")).toBe("`````");
    expect(parseLineComments("no section here\n### `a`\n#### line 1\nx")).toEqual([]);
  });
});

test("a prompt with two Line comments sections (fix_request.md's one-line list, then the one with context) gives the comments once", () => {
  const listed = "## Line comments\n\n- [logic-1] src/a.js line 2 (medium): Fix.\n";
  const full = lineCommentsMarkdown(
    [{ id: "logic-1", file: "src/a.js", start_line: 2, end_line: 2, severity: "medium", by: "reviewer_logic", body: "Fix." }],
    () => ["a", "b", "c"],
  );
  const back = parseLineComments(`# Fix\n\n${listed}\n## Background\n\ntext\n\n${full}\n## Finishing\n\n### \`not/a/comment.js\`\n\n#### line 1\n\nno`);
  expect(back).toEqual([{ id: "logic-1", file: "src/a.js", start_line: 2, end_line: 2, severity: "medium", by: "reviewer_logic", body: "Fix." }]);
});

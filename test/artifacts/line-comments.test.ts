import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import git from "isomorphic-git";
import { anchorProblems, runDiff } from "../../src/artifacts/anchors.ts";
import { checkAddressed } from "../../src/artifacts/addressed.ts";
import { parseArtifact } from "../../src/artifacts/index.ts";
import { fileBlobId } from "../../src/effects/git/blob-id.ts";
import type { LineComment } from "../../src/schema/artifacts/review.ts";
import type { State } from "../../src/schema/state.ts";
import { freshState } from "../orchestrator/fixtures.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { yaml } from "./fixtures.ts";

/** #14.1: line comments in a review are checked like the rest, against the run's diff. */
let repo: string;
let session: string;
beforeEach(async () => {
  repo = makeTmpDir("amx-anchor-");
  session = makeTmpDir("amx-anchor-session-");
  await git.init({ fs, dir: repo, defaultBranch: "main" });
  fs.mkdirSync(join(repo, "src"));
  for (const f of ["src/a.ts", "src/gone.ts", "src/same.ts", "src/dirty.ts"]) fs.writeFileSync(join(repo, f), "one\ntwo\nthree\n");
  await git.add({ fs, dir: repo, filepath: "." });
  await git.commit({ fs, dir: repo, message: "init", author: { name: "t", email: "t@example.com" } });
  fs.writeFileSync(join(repo, "src/a.ts"), "one\ntwo\nthree\nfour\nfive"); // 5 lines, the last without a newline
  fs.rmSync(join(repo, "src/gone.ts"));
  fs.writeFileSync(join(repo, "src/new.bin"), Buffer.from([1, 0, 2]));
});
afterEach(() => {
  removeDir(repo);
  removeDir(session);
});

const parse = (comments: unknown[]) => parseArtifact("review", yaml({ verdict: "fail", summary: "s", comments }));

describe("the review contract", () => {
  test("a failing review may carry line comments instead of findings; a passing review without comments stays valid", () => {
    expect(parse([{ file: "src/a.ts", line: 2, severity: "high", body: "x" }]).ok).toBe(true);
    expect(parseArtifact("review", yaml({ verdict: "pass", summary: "fine" })).ok).toBe(true);
    const none = parseArtifact("review", yaml({ verdict: "fail", summary: "s", comments: [] }));
    expect(none).toEqual({ ok: false, problems: [{ path: "findings", message: "a failing review must list at least one finding (or a line comment)" }] });
  });

  test("line or a range, never both or neither; a range runs forward; body and severity are required", () => {
    const problems = (c: Record<string, unknown>) => {
      const r = parse([{ file: "src/a.ts", severity: "low", body: "b", ...c }]);
      return r.ok ? [] : r.problems.map((p) => `${p.path}: ${p.message}`);
    };
    expect(problems({ line: 1, start_line: 1, end_line: 2 })).toEqual(["comments[0].line: give either line or start_line/end_line, not both"]);
    expect(problems({})).toEqual(["comments[0].line: required: the line the comment is about (or start_line and end_line for a range)"]);
    expect(problems({ start_line: 3 })).toEqual(["comments[0].end_line: required with start_line"]);
    expect(problems({ start_line: 3, end_line: 2 })).toEqual(["comments[0].end_line: must not be before start_line (3)"]);
    expect(problems({ line: 0 })).toEqual(["comments[0].line: must be a line number (1 or more)"]);
    const r = parse([{ file: "src/a.ts", line: 1 }]);
    expect(r.ok ? [] : r.problems.map((p) => p.path)).toEqual(["comments[0].severity", "comments[0].body"]);
  });
});

describe("anchors against the run's diff", () => {
  const c = (file: string, at: Partial<LineComment>): LineComment => ({ file, severity: "medium", body: "b", ...at }) as LineComment;

  test("changed files, lines within the file as it is now: no problems (./ and a last line without newline count)", async () => {
    const diff = await runDiff(repo);
    expect(anchorProblems([c("src/a.ts", { line: 5 }), c("./src/a.ts", { start_line: 1, end_line: 5 })], diff)).toEqual([]);
  });

  test("each bad comment is named with its field: unchanged, deleted, binary, past the end, outside the project", async () => {
    const diff = await runDiff(repo);
    const problems = anchorProblems(
      [
        c("src/same.ts", { line: 1 }),
        c("src/gone.ts", { line: 1 }),
        c("src/new.bin", { line: 1 }),
        c("src/a.ts", { line: 6 }),
        c("src/a.ts", { start_line: 4, end_line: 9 }),
        c("../x.ts", { line: 1 }),
      ],
      diff,
    );
    expect(problems).toEqual([
      {
        path: "comments[0].file",
        message: `"src/same.ts" is not a file this run changed (changed: src/a.ts, src/gone.ts, src/new.bin); put remarks about other files in findings`,
      },
      { path: "comments[1].file", message: `"src/gone.ts" was deleted by this run, so it has no lines to comment on; use a finding` },
      { path: "comments[2].file", message: `"src/new.bin" is a binary file; use a finding` },
      { path: "comments[3].line", message: "line 6 is past the end of src/a.ts (5 lines as it is now)" },
      { path: "comments[4].end_line", message: "line 9 is past the end of src/a.ts (5 lines as it is now)" },
      { path: "comments[5].file", message: `"../x.ts" must be a path relative to the project, as git diff shows it` },
    ]);
  });

  test("a file that was already uncommitted before the run (and left alone) is not in the run's diff", async () => {
    fs.writeFileSync(join(repo, "src/dirty.ts"), "dirty\n");
    const oid = fileBlobId(join(repo, "src/dirty.ts"));
    fs.mkdirSync(join(session, ".runtime"));
    fs.writeFileSync(join(session, ".runtime/preexisting_changes.json"), JSON.stringify([{ path: "src/dirty.ts", oid, mode: 0o100644 }]));
    expect((await runDiff(repo)).files.has("src/dirty.ts")).toBe(true);
    const diff = await runDiff(repo, session);
    expect(diff.files.has("src/dirty.ts")).toBe(false);
    expect(anchorProblems([c("src/dirty.ts", { line: 1 })], diff)[0]!.message).toContain("is not a file this run changed");
  });
});

describe("comments_addressed in a fix round", () => {
  const state = (): State => ({
    ...freshState(),
    phase: "fixing",
    review_iteration: 1,
    review_comments: [
      { id: "logic-1", reviewer: "reviewer_logic", round: 1, blocking: true, file: "src/a.ts", start_line: 1, end_line: 1, severity: "high", body: "x" },
      { id: "logic-2", reviewer: "reviewer_logic", round: 1, blocking: true, file: "src/same.ts", start_line: 1, end_line: 1, severity: "low", body: "y" },
      { id: "logic-0", reviewer: "reviewer_logic", round: 0, blocking: true, file: "src/same.ts", start_line: 1, end_line: 1, severity: "low", body: "old" },
    ],
  });
  const baseline = () => {
    fs.mkdirSync(join(session, "07_review"), { recursive: true });
    const files = { "src/a.ts": fileBlobId(join(repo, "src/a.ts")), "src/same.ts": fileBlobId(join(repo, "src/same.ts")) };
    fs.writeFileSync(join(session, "07_review/baseline_1.json"), JSON.stringify({ round: 1, files }));
  };

  test("an id of this round whose file changed since the baseline passes; unchanged files and unknown ids are refused", () => {
    baseline();
    fs.writeFileSync(join(repo, "src/a.ts"), "fixed\n");
    const problems = checkAddressed(["logic-1", "logic-2", "logic-0", "logic-9"], { state: state(), sessionDir: session, workDir: repo });
    expect(problems).toEqual([
      {
        path: "comments_addressed[1]",
        message: `"logic-2" is about src/same.ts, which has not changed since the review; change it as the comment asks, or leave "logic-2" out of comments_addressed`,
      },
      { path: "comments_addressed[2]", message: `"logic-0" is not a line comment of this fix round (its comments: logic-1, logic-2)` },
      { path: "comments_addressed[3]", message: `"logic-9" is not a line comment of this fix round (its comments: logic-1, logic-2)` },
    ]);
  });

  test("without the change the same claim is refused (the check can fail); a deleted file counts as changed", () => {
    baseline();
    expect(checkAddressed(["logic-1"], { state: state(), sessionDir: session, workDir: repo })).toHaveLength(1);
    fs.rmSync(join(repo, "src/a.ts"));
    expect(checkAddressed(["logic-1"], { state: state(), sessionDir: session, workDir: repo })).toEqual([]);
  });
});

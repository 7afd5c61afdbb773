import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readLog } from "../../src/session/log.ts";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

/**
 * #14.1 through the compiled binary: a reviewer leaves two line comments, the fixer's prompt
 * shows them with the lines around them, its completion artifact says it addressed them, the
 * gate checks their files changed, and state records it.
 */
let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

test("a review with two line comments → a fix prompt with their context → both recorded as addressed", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const repo = join(makeTmpDir("amx-lc-"), "repo");
  const r = await runBinary(bin, ["demo", "--ci", "--json", "--keep-session", "--dir", repo, "--scenario", "line_comments"], { socket });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const root = join(repo, ".agentmux", ".sessions");
  const dir = join(
    root,
    readdirSync(root).find((n) => !n.startsWith("."))!,
  );
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(state.review_comments).toHaveLength(2);
  const [one, two] = state.review_comments;
  expect(one).toMatchObject({ id: "logic-1", reviewer: "reviewer_logic", round: 1, blocking: true, start_line: 4, end_line: 4, addressed_in: 1 });
  expect(two).toMatchObject({ id: "logic-2", start_line: 2, end_line: 4, addressed_in: 1 });
  expect(one.file).toMatch(/^src\/.+\.js$/);
  expect(two.file).toMatch(/^test\/.+\.test\.js$/);

  const prompt = readFileSync(join(dir, "07_review/fix_prompt.md"), "utf8");
  const source = readFileSync(join(dir, "07_review/baseline_1.json"), "utf8");
  expect(Object.keys(JSON.parse(source).files)).toEqual([one.file, two.file]);
  // grouped by file, each comment with the lines around it as they were when the fixer started
  expect(prompt).toContain(`### \`${one.file}\``);
  expect(prompt).toContain("#### [logic-1] line 4 · medium · reviewer_logic · must be addressed");
  expect(prompt).toMatch(/▶ 4 │ export function \w+\(input = "world"\) \{/);
  expect(prompt).toMatch(/ {2}3 │ \n/);
  expect(prompt).toContain(`### \`${two.file}\``);
  expect(prompt).toContain("#### [logic-2] lines 2–4 · low · reviewer_logic · must be addressed");
  expect(prompt).toContain("````suggestion".slice(1)); // the suggestion travels too
  // the follow-up reviewer saw the fixer's claims
  const followup = readFileSync(join(dir, "07_review/review_logic_prompt.md"), "utf8");
  expect(followup).toContain("#### [logic-1] line 4 · medium · reviewer_logic · addressed by the fixer");
  expect(
    readLog(dir)
      .filter((r) => r.data?.note === "fix_round")
      .map((r) => r.data),
  ).toEqual([{ note: "fix_round", round: 1, addressed: ["logic-1", "logic-2"], not_addressed: [] }]);
  expect(existsSync(join(dir, "07_review/review_0_reviewer_logic.md"))).toBe(true);
  expect(readFileSync(join(dir, "07_review/review_0_reviewer_logic.md"), "utf8")).toContain(`- [logic-1] ${one.file} line 4 (medium):`);
}, 180_000);

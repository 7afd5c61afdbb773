import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { makeTmpDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #14.1 through the compiled binary: the completion panel's diff shows the reviewer's line
 * comments at their lines; `c` on a diff line adds the user's own; "request changes" puts it
 * into changes.md, the re-planning prompt shows it with its context, and the next plan has a
 * task for it.
 */
const scope = binaryScope();
const { dirs } = scope;
const socket = scope.socket;

function sessionDir(repo: string): string | null {
  const root = join(repo, ".agentmux", ".sessions");
  const id = existsSync(root) ? readdirSync(root).find((n) => !n.startsWith(".")) : undefined;
  return id ? join(root, id) : null;
}
const stateOf = (dir: string) => {
  try {
    return JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  } catch {
    return null;
  }
};

const PANEL = "Commit message (e: edit)";

test("reviewer comments at their lines in the panel's diff; the user's comment goes through changes.md into the next plan", async () => {
  const root = makeTmpDir("amx-lc-panel-");
  dirs.push(root);
  const repo = join(root, "repo");
  const env = { AGENTMUX_TMUX_SOCKET: socket(), CI: "", NO_COLOR: "1" };
  const run = new Screen(socket());
  await run.start([scope.bin, "demo", "--approve", "--dir", repo, "--think-ms", "0", "--scenario", "line_comments"], root, { width: 160, height: 45 }, env);
  await run.until("the approval panel", (x) => x.includes(PANEL), 90_000);
  const dir = sessionDir(repo)!;
  const [one] = stateOf(dir).review_comments;
  // the file list counts each file's comments
  expect(await run.capture()).toContain(`${one.file} ✎1`);

  // open the diff of the commented source file: its comment hangs under line 4
  const files = (await run.capture()).split("\n").filter((l) => /\[x\] [AM] /.test(l));
  const index = files.findIndex((l) => l.includes(one.file));
  for (let i = 0; i < index; i++) await run.keys("Down");
  await run.keys("Enter");
  const diff = await run.until("the diff with the reviewer's comment", (x) => x.includes("logic-1 · reviewer_logic · medium · line 4"));
  const lines = diff.split("\n");
  const at = lines.findIndex((l) => l.includes("logic-1 · reviewer_logic"));
  expect(lines[at - 1]).toMatch(/●\s+4 \+export function/);
  expect(lines[at + 1]).toContain("Empty input is not rejected here");

  // the cursor starts on line 1; two lines down is line 3: comment there
  await run.keys("Down", "Down", "c");
  await run.until("the comment editor", (x) => x.includes(`Comment on ${one.file} line 3`));
  await run.type("Say hello in French here.");
  await run.keys("C-s");
  await run.until("the user's comment in the diff", (x) => x.includes("you · line 3") && x.includes("Say hello in French here."));
  await run.keys("Escape");
  await run.until("the file list counts it", (x) => x.includes(`${one.file} ✎2`));

  await run.keys("r");
  await run.until("the change request editor", (x) => x.includes("your 1 line comment(s) go with it"));
  await run.type("Also greet politely.");
  await run.keys("C-s");

  // the run goes back to planning with changes.md; the next plan carries the comment
  const changesPrompt = join(dir, "04_planning/changes_prompt.md");
  await waitFor("the re-planning prompt", () => existsSync(changesPrompt), { timeoutMs: 60_000 });
  const prompt = readFileSync(changesPrompt, "utf8");
  expect(prompt).toContain("Also greet politely.");
  expect(prompt).toContain(`### \`${one.file}\``);
  expect(prompt).toContain("#### [user-1] line 3 · you");
  expect(prompt).toMatch(/▶ 3 │ \n/);
  expect(prompt).toContain("Say hello in French here.");
  await run.until("the approval panel after the follow-up", (x) => x.includes(PANEL), 90_000);
  const plan = YAML.parse(readFileSync(join(dir, "04_planning/plan.yaml"), "utf8"));
  expect(plan.subplans[0].tasks).toContain(`Address the comment on ${one.file} line 3: Say hello in French here.`);
  expect(existsSync(join(dir, ".runtime/panel_comments.json"))).toBe(false);
  await run.keys("a");
  await run.until("the goodbye after approving", (x) => x.includes("EXIT=0"), 60_000);
}, 240_000);

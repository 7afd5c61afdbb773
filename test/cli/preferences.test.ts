import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { proposePreferences, readProposals } from "../../src/session/preferences.ts";
import { PROPOSED_PREFERENCES } from "../../src/protocol/paths.ts";
import { panelHeader } from "../../src/views/panel.ts";
import { makeTmpDir, removeDir, REPO_ROOT } from "../helpers/tmp.ts";

/**
 * `agentmux preferences` (#18.12): preferences agents proposed reach a role's prompt file only
 * when the user approves them.
 */
const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
const MAIN = join(REPO_ROOT, "src", "main.ts");
let project: string;
beforeEach(() => {
  project = makeTmpDir("amx-prefs-");
  mkdirSync(join(project, ".git"));
  mkdirSync(join(project, ".agentmux"));
});
afterEach(() => removeDir(project));

const cli = (...args: string[]) => {
  const r = Bun.spawnSync([BUN, MAIN, "preferences", ...args], { cwd: project, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};
const by = { role: "architect", agent: "architect", session: "/s" };
const coderFile = () => join(project, ".agentmux/prompts/agents/coder.md");

test("proposals are listed; approving one writes it to the role's prompt file; rejecting drops it; nothing else changes", () => {
  proposePreferences(
    project,
    [
      { target_role: "coder", bullet: "Write tests first" },
      { target_role: "planner", bullet: "Small subplans" },
    ],
    by,
  );
  const [tests, small] = readProposals(project);
  const list = cli();
  expect(list.code).toBe(0);
  expect(list.out).toContain("2 proposed preferences (nothing reaches a prompt until you approve it):");
  expect(list.out).toContain(`${tests!.id}  coder: Write tests first   (proposed by the architect`);
  expect(existsSync(coderFile())).toBe(false);

  const ok = cli("approve", tests!.id);
  expect(ok.code).toBe(0);
  expect(ok.out).toContain("1 approved");
  expect(readFileSync(coderFile(), "utf8")).toBe("## Approved Preferences\n\n- Write tests first\n");
  expect(readProposals(project).map((p) => p.id)).toEqual([small!.id]);

  expect(cli("reject", "--all").code).toBe(0);
  expect(readProposals(project)).toEqual([]);
  expect(existsSync(join(project, ".agentmux/prompts/agents/planner.md"))).toBe(false);
  expect(cli().out).toBe("No proposed preferences.\n");
});

test("an agent's escape sequences never reach the list, the terminal or a prompt file; a hand-edited list prints inert", () => {
  proposePreferences(project, [{ target_role: "coder", bullet: "Use tabs\u001b]0;PWNED\u0007\u001b[31m red\u001b]52;c;Y2xpcA==\u0007" }], by);
  const [p] = readProposals(project);
  expect(p!.bullet).toBe("Use tabs red");
  expect(cli("approve", "--all").code).toBe(0);
  expect(readFileSync(coderFile(), "utf8")).toBe("## Approved Preferences\n\n- Use tabs red\n");
  // a proposals file written by hand (or by an older agentmux) is shown inert too
  const file = join(project, PROPOSED_PREFERENCES);
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      proposals: [{ id: "abc12345", target_role: "coder", bullet: "x\u001b[2Jy", proposed_by: by, at: "2026-11-23T00:00:00.000Z" }],
    }),
  );
  const list = cli();
  expect(list.code).toBe(0);
  expect(list.out).not.toContain("\u001b");
  expect(list.out).toContain("abc12345  coder: xy");
});

test("an unknown id, no ids, or ids with --all are usage errors (exit 2) that change nothing", () => {
  proposePreferences(project, [{ target_role: "coder", bullet: "x" }], by);
  const before = readFileSync(join(project, PROPOSED_PREFERENCES), "utf8");
  for (const args of [["approve", "deadbeef"], ["approve"], ["reject", readProposals(project)[0]!.id, "--all"], ["approve-all"]]) {
    const r = cli(...args);
    expect({ args, code: r.code }).toEqual({ args, code: 2 });
  }
  expect(cli("approve", "deadbeef").err).toContain('no pending proposal "deadbeef"');
  expect(readFileSync(join(project, PROPOSED_PREFERENCES), "utf8")).toBe(before);
  expect(existsSync(coderFile())).toBe(false);
});

test("a broken proposals file is an error naming it, not an empty list", () => {
  writeFileSync(join(project, PROPOSED_PREFERENCES), "{ nope");
  const r = cli();
  expect(r.code).toBe(1);
  expect(r.err).toContain(PROPOSED_PREFERENCES);
});

test("the approval panel's header says how many proposals wait", () => {
  const text = (n: number) =>
    panelHeader("f", [], new Set(), 200, n)
      .flat()
      .map((s) => s.t)
      .join("");
  expect(text(2)).toContain("2 proposed preferences: agentmux preferences");
  expect(text(0)).not.toContain("proposed");
});

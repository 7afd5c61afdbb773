import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, makeTmpDir, removeDir, REPO_ROOT } from "../helpers/tmp.ts";
import { json, validPlan, yaml } from "./fixtures.ts";

const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
let dir: string;
beforeEach(() => {
  dir = makeTmpDir("amx-validate-");
});
afterEach(() => removeDir(dir));

function validate(args: string[], exe: string[] = [BUN, "src/main.ts"]) {
  const r = Bun.spawnSync([...exe, "validate", ...args], { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

describe("agentmux validate", () => {
  test("a valid file: exit 0 and a check line naming the inferred kind", () => {
    const f = join(dir, "plan.yaml");
    writeFileSync(f, yaml(validPlan()));
    expect(validate([f])).toEqual({ code: 0, out: `✓ ${f}: valid plan\n`, err: "" });
  });

  test("an invalid file: exit 1 and one line per problem with its field path", () => {
    const f = join(dir, "approval.json");
    writeFileSync(f, json({ action: "reject", exclude_files: "x" }));
    const r = validate([f]);
    expect(r.code).toBe(1);
    expect(r.out).toBe(`${f}: action: must be "approve"\n${f}: exclude_files: must be a list, got string\n`);
  });

  test("--kind overrides the name; a root-level problem has no path", () => {
    const f = join(dir, "notes.txt");
    writeFileSync(f, "   \n");
    expect(validate([f, "--kind", "summary"])).toMatchObject({ code: 1, out: `${f}: summary is empty; it must have content\n` });
    writeFileSync(f, "verdict: pass\nsummary: fine\n");
    expect(validate(["--kind=review", f])).toMatchObject({ code: 0, out: `✓ ${f}: valid review\n` });
  });

  test("config under .agentmux is recognised and checked for unknown keys", () => {
    mkdirSync(join(dir, ".agentmux"));
    const f = join(dir, ".agentmux", "config.yaml");
    writeFileSync(f, "defaults:\n  provder: claude\n");
    expect(validate([f])).toMatchObject({ code: 1, out: `${f}: defaults.provder: unknown field\n` });
  });

  test("usage errors exit 2: unknown kind lists the kinds, unknown name, missing file, no file", () => {
    const f = join(dir, "x.yaml");
    writeFileSync(f, "a: 1\n");
    const unknownKind = validate([f, "--kind", "blueprint"]);
    expect(unknownKind.code).toBe(2);
    expect(unknownKind.err).toContain('unknown kind "blueprint"; valid kinds: plan, execution_plan, review, approval');
    const noKind = validate([f]);
    expect(noKind.code).toBe(2);
    expect(noKind.err).toContain("pass --kind");
    const missing = validate([join(dir, "plan.yaml")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("plan.yaml: file not found");
    // a missing file whose name says no kind: the missing file is what is wrong, not the name
    const missingUnnamed = validate([join(dir, "nofile.yaml")]);
    expect(missingUnnamed.code).toBe(2);
    expect(missingUnnamed.err).toContain("nofile.yaml: file not found");
    expect(missingUnnamed.err).not.toContain("pass --kind");
    expect(validate([]).code).toBe(2);
  });

  test("a review's line comments are checked against the diff of the repository around it, like submit_review does (#14.1)", () => {
    const git = (...a: string[]) =>
      Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", ...a], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    git("init", "-q", "-b", "main");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/a.ts"), "one\ntwo\n");
    git("add", ".");
    git("commit", "-q", "-m", "init");
    const f = join(dir, "review_reviewer_logic.yaml");
    writeFileSync(f, yaml({ verdict: "fail", summary: "s", comments: [{ file: "src/a.ts", line: 3, severity: "high", body: "b" }] }));
    expect(validate([f])).toEqual({
      code: 1,
      out: `${f}: comments[0].file: "src/a.ts" is not a file this run changed (changed: review_reviewer_logic.yaml); put remarks about other files in findings\n`,
      err: "",
    });
    writeFileSync(join(dir, "src/a.ts"), "one\ntwo\n");
    writeFileSync(join(dir, "src/a.ts"), "one\ntwo!\n");
    expect(validate([f])).toEqual({ code: 1, out: `${f}: comments[0].line: line 3 is past the end of src/a.ts (2 lines as it is now)\n`, err: "" });
    writeFileSync(join(dir, "src/a.ts"), "one\ntwo!\nthree\n");
    expect(validate([f])).toEqual({ code: 0, out: `✓ ${f}: valid review\n`, err: "" });
  });

  test("what the file says is printed inert: a path with escape sequences cannot retitle or clear the terminal", () => {
    Bun.spawnSync(["git", "init", "-q", "-b", "main"], { cwd: dir });
    const f = join(dir, "review_reviewer_logic.yaml");
    writeFileSync(
      f,
      yaml({ verdict: "fail", summary: "s", comments: [{ file: "src/\u001b]0;PWNED\u0007a\u001b[2J.ts", line: 1, severity: "high", body: "b" }] }),
    );
    const r = validate([f]);
    expect(r.code).toBe(1);
    expect(r.out).not.toContain("\u001b");
    expect(r.out).toContain('"src/a.ts"');
  });

  test.skipIf(!existsSync(BINARY))("the compiled binary gives the same results", () => {
    const f = join(dir, "done_1.json");
    writeFileSync(f, json({ status: "SUCCESS" }));
    const r = validate([f], [BINARY]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${f}: tests: required field is missing`);
  });
});

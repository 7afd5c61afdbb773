/**
 * Bad config values through the compiled binary: each error names the file and the key, says
 * what shape is expected in words a user writes (not zod's), and nothing is written.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryScope } from "../helpers/binary-scope.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const scope = binaryScope();
let project: string;
beforeEach(() => {
  project = makeTmpDir("amx-config-errors-");
  mkdirSync(join(project, ".agentmux"));
});
afterEach(() => removeDir(project));

function config(yaml: string) {
  writeFileSync(join(project, ".agentmux/config.yaml"), `version: 2\n${yaml}`);
  const r = Bun.spawnSync([scope.bin, "checks"], { cwd: project, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  expect(r.exitCode).toBe(2);
  expect(readdirSync(join(project, ".agentmux"))).toEqual(["config.yaml"]);
  return r.stderr.toString();
}

test("an empty command says it must not be empty (not zod's 'Too small: expected string to have >=1 characters')", () => {
  expect(config('checks:\n  test:\n    command: ""\n')).toContain("agentmux: config: .agentmux/config.yaml: checks.test.command: must not be empty\n");
});

test("one value where a list belongs: the list it likely meant", () => {
  expect(config("checks:\n  test:\n    command: npm test\n    when: after_coder\n")).toContain(
    ".agentmux/config.yaml: checks.test.when: expected a list, got a string; write it as a list: [after_coder]\n",
  );
  expect(config('worktree:\n  copy: ".env*"\n')).toContain('worktree.copy: expected a list, got a string; write it as a list: [".env*"]\n');
});

test("a role name with a letter more suggests that role (coders → coder), not one it would abbreviate (code-researcher)", () => {
  expect(config("roles:\n  coders:\n    provider: sim\n")).toContain(".agentmux/config.yaml: roles.coders: unknown key — did you mean coder?\n");
});

/**
 * Wrong inputs a new user tries, through the compiled binary: the error says what is wrong
 * once, where, and what to do, and nothing is written.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { binaryScope } from "../helpers/binary-scope.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const scope = binaryScope();
let dir: string;
beforeEach(() => {
  dir = makeTmpDir("amx-wrong-");
});
afterEach(() => removeDir(dir));

const cli = (...args: string[]) => {
  const r = Bun.spawnSync([scope.bin, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1", CI: "true", AGENTMUX_TMUX_SOCKET: scope.socket() },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};

test("agentmux issue outside a git repository names the folder once ('<dir>: <dir> is not inside…' said it twice)", () => {
  const r = cli("issue", "12", "--ci");
  expect(r.code).not.toBe(0);
  expect(r.err.split("\n")[0]).toBe(`agentmux: ${dir}: not inside a git repository`);
  expect(readdirSync(dir)).toEqual([]);
});

test("--config naming a file that is not there says 'file not found', whatever its name ends with", () => {
  const r = cli("config", "--config", `${dir}/my-config`);
  expect(r.code).toBe(2);
  expect(r.err).toContain("agentmux: config: my-config: file not found\n  hint: check the --config path");
  expect(readdirSync(dir)).toEqual([]);
});

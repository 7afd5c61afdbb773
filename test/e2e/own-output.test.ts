import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { env } from "../fault/harness.ts";
import { git, privateSocket } from "./harness.ts";
import { simProject } from "./sim-project.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #31.6: `agentmux run --ci … > run.log` inside the repository: the log, written by the shell
 * around the run, was committed as the run's change, and the checkout's switch back to main
 * then deleted it from under the shell. It is not the run's: left out of the commit, it stays.
 */
const scope = binaryScope();

test("the launcher's own output file inside the repository is neither committed nor lost", async () => {
  const repo = simProject(scope, 100);
  const socket = privateSocket();
  scope.sockets.push(socket);
  const p = Bun.spawn(["sh", "-c", `"$0" run "Add alpha" --ci > run.log 2>&1`, scope.bin], { cwd: repo, env: env(socket), stdout: "ignore", stderr: "ignore" });
  expect(await p.exited).toBe(0);
  const log = readFileSync(join(repo, "run.log"), "utf8");
  expect(log).toContain("commit");
  const branch = /on branch (\S+)/.exec(log)![1]!;
  expect(git(repo, "show", "--name-only", "--format=", branch).split("\n").filter(Boolean).sort()).toEqual(["src/alpha.js", "test/alpha.test.js"]);
  expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
  expect(git(repo, "status", "--porcelain")).toBe("?? run.log");
}, 120_000);

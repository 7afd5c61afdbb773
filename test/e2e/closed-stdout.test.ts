import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { env } from "../fault/harness.ts";
import { git, makeTmpDir, privateSocket } from "./harness.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #17.9: `agentmux run "x" --ci | head -2` killed the launcher with a bun stack trace (EPIPE).
 * Now output ends quietly when the reader goes away, and the launcher follows the run to its
 * end: exit code of the run, nothing on stderr, the commit made.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;

test("a headless run piped into head -2: two lines, no stack trace, the run goes on to its commit, exit 0", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const root = makeTmpDir("amx-epipe-");
  dirs.push(root);
  const repo = join(root, "repo");
  const err = join(root, "stderr.txt");
  const p = Bun.spawn(["bash", "-c", 'set -o pipefail; "$0" demo --ci --dir "$1" --think-ms 100 2>"$2" | head -2', scope.bin, repo, err], {
    env: env(socket),
    stdout: "pipe",
  });
  const out = await new Response(p.stdout).text();
  expect(await p.exited).toBe(0);
  expect(out.trim().split("\n")).toHaveLength(2);
  expect(readFileSync(err, "utf8")).toBe("");
  expect(git(repo, "log", "-1", "--format=%s", "feature/greeting-module")).not.toBe("Initial commit");
}, 120_000);

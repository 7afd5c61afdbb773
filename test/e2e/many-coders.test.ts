import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionDir, spawnBinary } from "../fault/harness.ts";
import { git, makeTmpDir, privateSocket } from "./harness.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * A plan with more parallel coders than fit one above the other in the window (six in an 80×24
 * session: two fit, each tall enough for a CLI's input box). The layout used to split the last pane again for every coder until tmux
 * refused ("create pane failed: pane too small") and the run failed on its view.
 */
const scope = binaryScope();

test("six parallel coders in an 80×24 session: two are shown, four work parked, and the run commits", async () => {
  const socket = privateSocket();
  scope.sockets.push(socket);
  const root = makeTmpDir("amx-many-coders-");
  scope.dirs.push(root);
  const repo = join(root, "repo");
  writeFileSync(join(root, "small.yaml"), "version: 2\ntmux:\n  width: 80\n  height: 24\n");
  const run = spawnBinary(scope.bin, ["demo", "--ci", "--dir", repo, "--keep-session", "--scenario", "coders=6", "--config", join(root, "small.yaml")], {
    socket,
  });
  const r = await run.done;
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const branch = r.stdout.match(/branch (\S+)\s+commit/)![1]!;
  const files = git(repo, "show", "--name-only", "--format=", branch).split("\n");
  expect(files.filter((f) => f.startsWith("src/")).length).toBeGreaterThanOrEqual(6);
  const log = readFileSync(join(sessionDir(repo)!, "orchestrator.log"), "utf8");
  expect(log).toContain("showing 2 of 6 agents, as many as fit one above the other; coder:3, coder:4, coder:5, coder:6 work on parked");
  expect(log).not.toContain("failed: tmux");
}, 120_000);

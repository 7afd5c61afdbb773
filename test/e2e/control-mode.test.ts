import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { readState, sessionDir, spawnBinary, tmux } from "../fault/harness.ts";
import { makeTmpDir, privateSocket } from "./harness.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * tmux.control_mode: off by default (tmux 3.3a's server crashes when control clients come and
 * go while other runs on the same server change their windows: measured, see
 * docs/benchmarks.md), on when the config says so. Which one a run uses is seen from tmux: a
 * control-mode client attached to the run's session, or none.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;

async function controlClientsDuringRun(configYaml: string | null): Promise<string[]> {
  const socket = privateSocket();
  sockets.push(socket);
  const root = makeTmpDir("amx-control-");
  dirs.push(root);
  const repo = join(root, "repo");
  const args = ["demo", "--ci", "--dir", repo, "--think-ms", "400"];
  if (configYaml !== null) {
    writeFileSync(join(root, "extra.yaml"), configYaml);
    args.push("--config", join(root, "extra.yaml"));
  }
  const run = spawnBinary(scope.bin, args, { socket });
  // an agent at work: the orchestrator is set up by then
  await waitFor(
    "an agent at work",
    () => {
      const d = sessionDir(repo);
      const s = d ? readState(d) : null;
      return s && Object.values(s.agents ?? {}).some((a: any) => a.status === "working");
    },
    { timeoutMs: 60_000, intervalMs: 10 },
  );
  const clients = tmux(socket, "list-clients", "-F", "#{client_control_mode}").out.split("\n").filter(Boolean);
  expect((await run.done).code).toBe(0);
  return clients;
}

test("by default a run attaches no control-mode client: each tmux call is a process of its own", async () => {
  expect(await controlClientsDuringRun(null)).toEqual([]);
}, 120_000);

test("tmux.control_mode: true: the orchestrator's one control-mode client is attached for the run, and the run commits", async () => {
  expect(await controlClientsDuringRun("version: 2\ntmux:\n  control_mode: true\n")).toEqual(["1"]);
}, 120_000);

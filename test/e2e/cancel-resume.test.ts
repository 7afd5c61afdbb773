import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { jsonEvents, readState, sessionDir, spawnBinary } from "../fault/harness.ts";
import { git, makeTmpDir, privateSocket, runBinary, tmuxServerRunning } from "./harness.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #11.1: a cancel request is consumed once. Before the fix, `resume` found the old
 * `.runtime/cancel_request` and canceled itself again within 100 ms, forever.
 * Each way a user cancels a headless run, in each phase, then `resume --ci` reaches a commit.
 * `agentmux cancel` is the way from another terminal (or a script).
 */
const scope = binaryScope();
const { sockets, dirs } = scope;

type Way = "SIGINT" | "SIGTERM" | "SIGHUP" | "monitor" | "agentmux cancel";
const CAUSE: Record<Way, string> = {
  SIGINT: "canceled by the user (Ctrl-C)",
  SIGTERM: "canceled: agentmux received SIGTERM",
  SIGHUP: "canceled: agentmux received SIGHUP",
  monitor: "canceled by the user (monitor)",
  "agentmux cancel": "canceled by the user (agentmux cancel)",
};

async function cancelThenResume(phase: string, way: Way): Promise<void> {
  const socket = privateSocket();
  sockets.push(socket);
  const root = makeTmpDir("amx-cancel-");
  dirs.push(root);
  const repo = join(root, "repo");
  const run = spawnBinary(scope.bin, ["demo", "--ci", "--json", "--keep-session", "--dir", repo, "--think-ms", "250"], { socket });
  const dir = await waitFor(
    `the run to reach ${phase}`,
    () => {
      const d = sessionDir(repo);
      const s = d ? readState(d) : null;
      return s?.phase === phase && Object.keys(s.agents ?? {}).length ? d : null;
    },
    { timeoutMs: 60_000, intervalMs: 10 },
  );
  const id = dir.split("/").pop()!;
  if (way === "monitor") writeFileSync(join(dir, ".runtime", "cancel_request"), JSON.stringify({ at: new Date().toISOString(), by: "monitor" }));
  else if (way === "agentmux cancel") {
    // from another terminal: it waits for the run to stop and says how to go on
    const c = await runBinary(scope.bin, ["cancel"], { cwd: repo, socket });
    expect({ code: c.code, stderr: c.stderr }).toEqual({ code: 0, stderr: "" });
    expect(c.stdout).toBe(`canceled ${id} in phase ${phase}; the session is kept\nresume with: agentmux resume ${id}\n`);
    const again = await runBinary(scope.bin, ["cancel", id], { cwd: repo, socket });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`session ${id} is not running`);
    expect(again.stderr).toContain(`resume it with: agentmux resume ${id}`);
  } else run.proc.kill(way);
  const first = await run.done;
  expect({ phase, way, code: first.code }).toEqual({ phase, way, code: 130 });
  expect(first.stderr).not.toContain("error");
  const canceled = readState(dir);
  expect(canceled).toMatchObject({ phase: "failed", interruption_category: "canceled", interruption_cause: CAUSE[way] });
  expect(jsonEvents(first.stdout).find((e) => e.kind === "result")).toMatchObject({ outcome: "canceled", exit_code: 130, cause: CAUSE[way] });
  expect(tmuxServerRunning(socket)).toBe(false); // orchestrator and panes stopped, session kept

  const resumed = await runBinary(scope.bin, ["resume", "--ci", "--json"], { cwd: repo, socket, timeoutMs: 90_000 });
  if (resumed.code !== 0) console.error(phase, way, resumed.stdout, resumed.stderr);
  expect({ phase, way, code: resumed.code }).toEqual({ phase, way, code: 0 });
  const result = jsonEvents(resumed.stdout).find((e) => e.kind === "result");
  expect(result).toMatchObject({ outcome: "success", exit_code: 0 });
  expect(readState(dir)).toMatchObject({ phase: "done", commit_hash: result.commit });
  expect(git(repo, "rev-parse", "--short", result.branch)).toStartWith(result.commit);
  expect(existsSync(join(dir, ".runtime", "cancel_request"))).toBe(false);
}

describe("cancel, then resume reaches a commit (compiled binary)", () => {
  test("Ctrl-C while architecting, a monitor cancel while planning", async () => {
    await Promise.all([cancelThenResume("architecting", "SIGINT"), cancelThenResume("planning", "monitor")]);
  }, 240_000);

  test("SIGTERM while implementing, SIGHUP while reviewing", async () => {
    await Promise.all([cancelThenResume("implementing", "SIGTERM"), cancelThenResume("reviewing", "SIGHUP")]);
  }, 240_000);

  test("agentmux cancel from another terminal while implementing", async () => {
    await cancelThenResume("implementing", "agentmux cancel");
  }, 240_000);
});

import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { alive, jsonEvents, orchestratorPid } from "../fault/harness.ts";
import { isolatedBinary, killTmuxServer, processesMentioning, tmuxServerRunning } from "./harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";

/**
 * #18.6: a deleted session folder (rm -rf, an agent's `git clean -xdf`) left the orchestrator,
 * the tmux session and the agents running forever. Now the run stops: failed, exit 1, a cause
 * that says the folder is gone, no process and no tmux session left, no folder recreated.
 */
let bin: string;
const track = { sockets: [] as string[], dirs: [] as string[] };
beforeAll(() => {
  bin = isolatedBinary();
  track.dirs.push(join(bin, ".."));
});
afterAll(() => {
  track.sockets.forEach(killTmuxServer);
  track.dirs.forEach(removeDir);
});

test("git clean -xdf removes the session folder mid-run: the run stops cleanly and says why", async () => {
  const demo = startSlowDemo(bin, { track, thinkMs: 400 });
  const dir = await waitForPhase(demo.repo, "implementing");
  const pid = orchestratorPid(dir)!;
  // agents may write while git deletes: clean again until the folder is gone
  await waitFor(
    "git clean to remove the session folder",
    () => {
      Bun.spawnSync(["git", "clean", "-xdfq"], { cwd: demo.repo, stderr: "ignore" });
      return !existsSync(dir);
    },
    { timeoutMs: 10_000 },
  );
  const r = await Promise.race([demo.done, Bun.sleep(30_000).then(() => null)]);
  if (!r) demo.proc.kill("SIGKILL");
  expect(r?.code).toBe(1);
  const result = jsonEvents(r!.stdout).find((e) => e.kind === "result");
  expect(result).toMatchObject({
    outcome: "failed",
    exit_code: 1,
    cause: `the session folder ${dir} was deleted while the run was implementing; the run is stopped`,
  });
  expect(alive(pid)).toBe(false);
  expect(tmuxServerRunning(demo.socket)).toBe(false);
  await waitFor("the agents to be gone", () => processesMentioning(dir).length === 0, { timeoutMs: 10_000 });
  expect(existsSync(join(dir, "state.json"))).toBe(false);
}, 120_000);

import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { removeDir } from "../helpers/tmp.ts";
import { jsonEvents, orchestratorPid, readState, tmux } from "../fault/harness.ts";
import { isolatedBinary, killTmuxServer } from "./harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";

/**
 * #18.20 (launcher side): how a run ends is always a real outcome with a cause. Before, a killed
 * orchestrator gave `outcome: "running"` and no cause, and a killed tmux server gave exit 130 or
 * 1 depending on timing without ever saying the server died.
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

test("a SIGKILLed orchestrator: outcome failed, exit 1, the cause names the signal; the session stays resumable", async () => {
  const demo = startSlowDemo(bin, { track });
  const dir = await waitForPhase(demo.repo, "implementing");
  const pid = orchestratorPid(dir)!;
  process.kill(pid, "SIGKILL");
  const r = await demo.done;
  expect(r.code).toBe(1);
  const result = jsonEvents(r.stdout).find((e) => e.kind === "result");
  expect(result).toMatchObject({
    outcome: "failed",
    exit_code: 1,
    cause: `the orchestrator (pid ${pid}) was killed by SIGKILL before the run finished; the session is kept and can be resumed`,
  });
  expect(readState(dir).phase).toBe("implementing"); // nothing recorded a failure: resume goes on from here
}, 120_000);

test("the tmux server killed in three different phases: always exit 1, and the cause says the server is gone", async () => {
  const outcomes = await Promise.all(
    ["architecting", "implementing", "reviewing"].map(async (phase) => {
      const demo = startSlowDemo(bin, { track });
      const dir = await waitForPhase(demo.repo, phase);
      tmux(demo.socket, "kill-server");
      const r = await demo.done;
      return { phase, socket: demo.socket, code: r.code, result: jsonEvents(r.stdout).find((e) => e.kind === "result"), state: readState(dir) };
    }),
  );
  for (const o of outcomes) {
    const cause = `the tmux server (socket ${o.socket}) is gone (killed or crashed); the run's agents stopped with it`;
    expect({ phase: o.phase, code: o.code, outcome: o.result.outcome, cause: o.result.cause }).toEqual({ phase: o.phase, code: 1, outcome: "failed", cause });
    expect(o.state).toMatchObject({ phase: "failed", interruption_category: "failed", interruption_cause: cause });
  }
}, 180_000);

import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDir } from "../helpers/tmp.ts";
import { readState } from "../fault/harness.ts";
import { makeZombie } from "../helpers/processes.ts";
import { isolatedBinary, killTmuxServer, runBinary } from "./harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";

/** #18.7: an orchestrator.pid left by a killed orchestrator whose pid is now a zombie blocked resume. */
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

test("resume goes on when the recorded orchestrator pid is a zombie (kill(pid, 0) alone said 'still running')", async () => {
  const demo = startSlowDemo(bin, { track });
  const dir = await waitForPhase(demo.repo, "planning");
  demo.proc.kill("SIGTERM");
  expect((await demo.done).code).toBe(130);
  const z = await makeZombie();
  writeFileSync(join(dir, ".runtime/orchestrator.pid"), `${z.pid}\n`);
  const r = await runBinary(bin, ["resume", "--ci"], { cwd: demo.repo, socket: demo.socket });
  expect(r.stderr).not.toContain("still running");
  expect(r.code).toBe(0);
  expect(readState(dir)).toMatchObject({ phase: "done" });
  z.stop();
}, 120_000);

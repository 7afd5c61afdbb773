import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ChecksService } from "../../src/daemon/checks.ts";
import { checkEngine } from "../../src/daemon/check-engine.ts";
import { allEvents, toCome } from "../../src/daemon/outcome.ts";
import { Config } from "../../src/schema/config.ts";
import type { Event, EventOf } from "../../src/schema/events.ts";
import { initialState } from "../../src/session/initial-state.ts";
import { scratch } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

/** The daemon's checks service on real commands (the bounded runner), without tmux or agents. */
function service(checks: Record<string, { command: string; timeout_s?: number; required?: boolean }>, s: ReturnType<typeof scratch>) {
  const sessionDir = s.dir("amx-cksvc-s-");
  const workDir = s.dir("amx-cksvc-w-");
  const state = {
    ...initialState({ featureDir: sessionDir, sessionName: "s", featureName: "f", projectDir: workDir, productManager: false, at: new Date().toISOString() }),
  };
  const svc = new ChecksService({
    sessionDir,
    workDir,
    mainRepoDir: workDir,
    config: Config.parse({ checks }),
    env: { AGENTMUX_PORT_OFFSET: "30" },
    state: () => state,
    log: () => {},
    engine: checkEngine(),
  });
  return { svc, sessionDir, workDir };
}
const finished = (events: Event[]) => events.filter((e): e is EventOf<"check_finished"> => e.type === "check_finished");

test("a batch runs in order: started then finished per check, the result and log in 06_checks/run_<n>/, the env it gets", async () => {
  using s = scratch();
  const { svc, sessionDir } = service(
    { ok: { command: 'echo "offset $AGENTMUX_PORT_OFFSET check $AGENTMUX_CHECK"' }, bad: { command: "echo 'src/a.js:3: boom' >&2; exit 2" } },
    s,
  );
  // the batch's outcome: its events, as they come, until the batch is done
  const events = await allEvents(toCome(svc.start({ type: "run_checks", run: 4, when: "after_implementation", round: 1, names: ["ok", "bad", "gone"] })));
  expect(events.map((e) => `${e.type}:${"name" in e ? e.name : ""}`)).toEqual([
    "check_started:ok",
    "check_finished:ok",
    "check_started:bad",
    "check_finished:bad",
    "check_finished:gone",
  ]);
  const [ok, bad, gone] = finished(events).map((e) => e.result);
  expect(ok).toMatchObject({ status: "passed", exit_code: 0, log: "06_checks/run_4/ok.log", file: "06_checks/run_4/ok.json" });
  expect(readFileSync(join(sessionDir, "06_checks/run_4/ok.log"), "utf8")).toBe("offset 30 check ok\n");
  expect(bad).toMatchObject({ status: "failed", exit_code: 2, required: true });
  expect(bad!.tail).toContain("src/a.js:3: boom");
  expect(JSON.parse(readFileSync(join(sessionDir, "06_checks/run_4/bad.json"), "utf8"))).toMatchObject({
    name: "bad",
    round: 1,
    when: "after_implementation",
    status: "failed",
  });
  // a check taken out of the config since its batch started: reported, never blocking
  expect(gone).toMatchObject({ status: "error", required: false });
  expect(gone!.error).toContain("no check named gone");
});

test("stop() while a check runs: its group is killed at once and nothing more is reported", async () => {
  using s = scratch();
  const { svc, workDir } = service({ slow: { command: "echo $$ > slow.pid; sleep 60" } }, s);
  const outcome = allEvents(toCome(svc.start({ type: "run_checks", run: 1, when: "after_implementation", round: 0, names: ["slow"] })));
  await waitFor("the check to start", () => existsSync(join(workDir, "slow.pid")) && readFileSync(join(workDir, "slow.pid"), "utf8").trim() !== "", {
    timeoutMs: 10_000,
  });
  const t0 = Date.now();
  svc.stop();
  // the batch's events end with the service: its cut-off check reports nothing
  const events = await outcome;
  expect(Date.now() - t0).toBeLessThan(10_000);
  expect(finished(events)).toEqual([]);
  const pid = Number(readFileSync(join(workDir, "slow.pid"), "utf8").trim());
  expect(existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ")).toBe(false);
});

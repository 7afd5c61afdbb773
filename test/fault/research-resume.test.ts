import { afterAll, beforeAll, expect, test } from "bun:test";
import { readLog } from "../../src/session/log.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parse, stringify } from "yaml";
import { isolatedBinary, killTmuxServer } from "../e2e/harness.ts";
import { waitFor } from "../helpers/wait.ts";
import { alive, fsckProblems, jsonEvents, orchestratorPid, readState, spawnBinary, startDemo, toolLines, unparsableFiles, waitForState } from "./harness.ts";

let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

test("SIGKILL while research is dispatched, then resume: the unfinished topic's researcher is relaunched and the run finishes", async () => {
  // the researcher stalls, so the orchestrator dies with the topic in flight
  const run = startDemo(bin, { scenario: "research,stall=code-researcher", thinkMs: 200, sockets });
  const { dir } = await waitForState(
    run,
    "research dispatched, the researcher at work",
    (s) =>
      s.phase === "architecting" &&
      s.research_tasks?.["existing-code"] === "dispatched" &&
      ["starting", "working"].includes(s.agents?.["code-researcher:existing-code"]?.status),
  );
  const pid = orchestratorPid(dir)!;
  process.kill(pid, "SIGKILL");
  await run.done;
  await waitFor("the orchestrator to be gone", () => !alive(pid));

  // whatever stalled the researcher is gone now (the project's config drops the stall)
  const configFile = join(run.repo, ".agentmux", "config.yaml");
  const config = parse(readFileSync(configFile, "utf8"));
  config.sim.scenario = ["research"];
  writeFileSync(configFile, stringify(config));

  const resumed = await spawnBinary(bin, ["resume", basename(dir), "--ci", "--json"], { cwd: run.repo, socket: run.socket, timeoutMs: 90_000 }).done;
  const log = readFileSync(join(dir, "orchestrator.log"), "utf8");
  if (resumed.code !== 0) console.error(resumed.stdout, resumed.stderr, log);
  expect(resumed.code).toBe(0);
  expect(jsonEvents(resumed.stdout).find((e) => e.kind === "result")?.outcome).toBe("success");
  const state = readState(dir);
  expect(state.phase).toBe("done");
  expect(state.research_tasks).toEqual({ "existing-code": "done" });
  // the resumed orchestrator launched the researcher again (the architect's re-dispatch alone is a repeat)
  const records = readLog(dir);
  const afterResume = records.slice(records.findLastIndex((r) => r.event === "orchestrator_started"));
  expect(afterResume.filter((r) => r.event === "agent_launched").map((r) => r.agent)).toContain("code-researcher:existing-code");
  expect(toolLines(dir).filter((l) => l.tool === "submit_research_done")).toHaveLength(1);
  expect(readFileSync(join(dir, "03_research/code-existing-code/summary.md"), "utf8").trim()).not.toBe("");
  expect(unparsableFiles(dir)).toEqual([]);
  expect(fsckProblems(run.repo)).toBe("");
}, 240_000);

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import YAML from "yaml";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startMcpHost } from "../../src/daemon/mcp-host.ts";
import type { Role } from "../../src/schema/catalog.ts";
import { readState as readSessionState } from "../../src/session/read.ts";
import { isolatedBinary, killTmuxServer } from "../e2e/harness.ts";
import { waitFor } from "../helpers/wait.ts";
import { validPlan } from "../artifacts/fixtures.ts";
import { alive, orchestratorPid, readState, spawnBinary, startDemo, toolLines, waitForState } from "./harness.ts";

/**
 * Tool events are self-contained (#13.3): the endpoint keeps a snapshot of the exact bytes it
 * validated, and the orchestrator applies that snapshot — never the agent's file as it is when
 * the line is finally applied. Each case stops a demo run with the agent stalled, SIGKILLs the
 * orchestrator, records an accepted call as the run's endpoint does (the real endpoint code, on
 * the session's own seal key: exactly what a call accepted just before the kill leaves behind),
 * then changes the agent's file and resumes with the compiled binary.
 */
let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

/** Run the demo until `when`, then SIGKILL its orchestrator; returns the session folder and repo. */
async function stopAt(scenario: string, what: string, when: (s: any) => boolean) {
  const run = startDemo(bin, { scenario, thinkMs: 0, sockets });
  const { dir } = await waitForState(run, what, when);
  const pid = orchestratorPid(dir)!;
  process.kill(pid, "SIGKILL");
  await run.done;
  await waitFor("the orchestrator to be gone", () => !alive(pid));
  return { dir, repo: run.repo, socket: run.socket };
}

/** One call accepted by the run's endpoint (as the dead orchestrator hosted it), then the endpoint is gone. */
async function acceptedCall(dir: string, repo: string, agent: string, role: Role, tool: string, args: Record<string, unknown>) {
  const host = startMcpHost({ sessionDir: dir, projectDir: repo, state: () => readSessionState(dir), log: () => {} });
  try {
    const token = host.tokens.issue(agent, role, repo);
    // this process stands for the agent's pane: the endpoint accepts the token only from its process tree
    host.tokens.bindProcess(agent, process.pid);
    const client = new Client({ name: "fault-test", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(host.endpoint.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const r = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    await client.close();
    if (r.isError) throw new Error(`${tool} was refused: ${r.content.map((c) => c.text).join("\n")}`);
  } finally {
    host.stop();
  }
}

const resume = (dir: string, repo: string, socket: string, timeoutMs = 120_000) =>
  spawnBinary(bin, ["resume", basename(dir), "--ci", "--json"], { cwd: repo, socket, timeoutMs });

describe("the orchestrator applies what the endpoint validated, not the file as it is later (compiled binary)", () => {
  test("plan.yaml edited after submit_plan was accepted, orchestrator SIGKILLed, resume → the validated plan is applied", async () => {
    const { dir, repo, socket } = await stopAt(
      "stall=planner",
      "the planner stalled",
      (s) => s.phase === "planning" && s.agents?.planner?.status === "working",
    );
    const validated = validPlan();
    validated.plan_overview = "The validated plan: one part";
    validated.groups = [{ group_id: "g1", mode: "serial", plans: [{ index: 1, name: "validated" }] }];
    validated.subplans = [{ ...validated.subplans[0], title: "Validated part", owned_files: ["src/validated.js"] }];
    writeFileSync(join(dir, "04_planning/plan.yaml"), YAML.stringify(validated));
    await acceptedCall(dir, repo, "planner", "planner", "submit_plan", {});
    // the agent keeps editing after its call was accepted: a different, also valid plan
    writeFileSync(join(dir, "04_planning/plan.yaml"), YAML.stringify(validPlan()));

    const r = await resume(dir, repo, socket).done;
    if (r.code !== 0) console.error(r.stdout, r.stderr, readFileSync(join(dir, "orchestrator.log"), "utf8"));
    expect(r.code).toBe(0);
    const state = readState(dir);
    expect(state.phase).toBe("done");
    expect(state.subplan_count).toBe(1);
    expect(state.execution_groups).toEqual([{ group_id: "g1", mode: "serial", plans: [{ index: 1, name: "validated" }] }]);
    expect(readFileSync(join(dir, "04_planning/plan_1.md"), "utf8")).toContain("Validated part");
    expect(existsSync(join(dir, "04_planning/plan_2.md"))).toBe(false);
  }, 240_000);

  test("done_1.json broken after submit_done was accepted → audited from the validated copy (never a SUCCESS made up for a broken file)", async () => {
    const { dir, repo, socket } = await stopAt("stall=coder", "the coder stalled", (s) => s.phase === "implementing" && s.agents?.coder?.status === "working");
    // real work, truthfully reported
    mkdirSync(join(repo, "src"), { recursive: true });
    writeFileSync(join(repo, "src/partial.js"), "export const partial = 1;\n");
    writeFileSync(join(repo, "src/partial.test.js"), "import { test } from 'node:test';\ntest('a', () => {});\ntest('b', () => {});\n");
    const done = {
      subplan_index: 1,
      status: "SUCCESS",
      tasks_completed: ["write it", "test it"],
      files_created: ["src/partial.js", "src/partial.test.js"],
      files_modified: [],
      tests: { files: 1, cases: 2 },
    };
    writeFileSync(join(dir, "06_implementation/done_1.json"), JSON.stringify(done));
    await acceptedCall(dir, repo, "coder", "coder", "submit_done", { subplan_index: 1 });
    writeFileSync(join(dir, "06_implementation/done_1.json"), "{ this is not JSON");

    const r = await resume(dir, repo, socket).done;
    if (r.code !== 0) console.error(r.stdout, r.stderr, readFileSync(join(dir, "orchestrator.log"), "utf8"));
    expect(r.code).toBe(0);
    // the audit line is the validated artifact's: its tasks, files and tests (a broken file would give 0/0/0)
    const audit = readFileSync(join(dir, "06_implementation/audit.log"), "utf8")
      .trim()
      .split("\n")
      .filter((l) => / plan 1 /.test(l));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toContain("plan 1 SUCCESS: 2 tasks, 2 created, 0 modified, tests 1 files/2 cases");
  }, 240_000);

  test("a snapshot changed after the call was accepted → tool_rejected, no coder_done, nothing audited", async () => {
    const { dir, repo, socket } = await stopAt("stall=coder", "the coder stalled", (s) => s.phase === "implementing" && s.agents?.coder?.status === "working");
    mkdirSync(join(repo, "src"), { recursive: true });
    writeFileSync(join(repo, "src/partial.js"), "export const partial = 1;\n");
    writeFileSync(
      join(dir, "06_implementation/done_1.json"),
      JSON.stringify({
        subplan_index: 1,
        status: "SUCCESS",
        tasks_completed: ["x"],
        files_created: ["src/partial.js"],
        files_modified: [],
        tests: { files: 0, cases: 0 },
      }),
    );
    await acceptedCall(dir, repo, "coder", "coder", "submit_done", { subplan_index: 1 });
    const [line] = toolLines(dir).filter((l) => l.tool === "submit_done");
    writeFileSync(
      join(dir, line.payload.snapshot.path),
      JSON.stringify({ status: "SUCCESS", tasks_completed: ["everything"], files_created: [], files_modified: [], tests: { files: 9, cases: 99 } }),
    );

    // the resumed run re-prompts the (stalling) coder: stop it once the line has been applied
    const resumed = resume(dir, repo, socket);
    await waitFor("the submit_done line to be applied", () => (readState(dir)?.tool_seq ?? 0) >= line.seq, { timeoutMs: 60_000 });
    const state = readState(dir);
    resumed.proc.kill("SIGTERM");
    await resumed.done;
    expect(state.completed_subplans).toEqual([]);
    expect(existsSync(join(dir, "06_implementation/audit.log")) ? readFileSync(join(dir, "06_implementation/audit.log"), "utf8") : "").not.toContain("plan 1");
    expect(readFileSync(join(dir, "orchestrator.log"), "utf8")).toContain("was changed after the call was accepted");
  }, 240_000);
});

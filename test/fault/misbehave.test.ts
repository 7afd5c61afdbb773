/**
 * Simulated agents that misbehave the way real ones do (#12), through the compiled binary,
 * headless: each alone and combined ends in a commit without a person, or fails with the cause.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SIM_SWITCHES } from "../../src/schema/sim-scenario.ts";
import { readLog } from "../../src/session/log.ts";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isolatedBinary, killTmuxServer } from "../e2e/harness.ts";
import { waitFor } from "../helpers/wait.ts";
import { lastHeartbeat } from "../../src/session/liveness.ts";
import { alive, fsckProblems, jsonEvents, orchestratorPid, readState, spawnBinary, startDemo, waitForState } from "./harness.ts";

let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

const resultOf = (stdout: string) => jsonEvents(stdout).find((e) => e.kind === "result");
const sessionOf = (repo: string, stdout: string) => join(repo, ".agentmux/.sessions", resultOf(stdout).session);
const log = (dir: string) => readLog(dir);

/** A second simulated CLI, as a user would configure a fallback provider. */
const SIM2 = {
  command: "@self",
  args: ["sim-agent"],
  model_flag: null,
  mcp: "sim",
  trust: [{ detect: "Trust this folder\\? \\(sim\\)", keys: ["Enter"] }],
  pre_trust: false,
  batch: { args: ["--prompt"], mode: "flag" },
  ready: { pattern: "\\[sim\\] ready", busy_pattern: "\\[sim\\] working", settle_ms: 100, timeout_ms: 30000 },
  limits: ["\\[sim\\] usage limit reached"],
  conversation: { start: ["--session-id", "{id}"], resume: ["--resume", "{id}"] },
};

async function succeeds(run: ReturnType<typeof startDemo>): Promise<{ dir: string; stdout: string; state: any }> {
  const r = await run.done;
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  expect(resultOf(r.stdout)).toMatchObject({ outcome: "success", exit_code: 0 });
  const dir = sessionOf(run.repo, r.stdout);
  expect(fsckProblems(run.repo)).toBe("");
  return { dir, stdout: r.stdout, state: readState(dir) };
}

describe("misbehaving agents end in a commit without a person", () => {
  test("forget_submit=architect: the turn end is seen, one reminder names the tool, the run commits", async () => {
    const { dir, state } = await succeeds(startDemo(bin, { scenario: "forget_submit=architect", thinkMs: 0, sockets }));
    expect(state.phase).toBe("done");
    expect(state.agents.architect).toMatchObject({ status: "done", idle_turns: 1 });
    expect(
      log(dir).filter(
        (r) =>
          r.event === "state_machine" &&
          r.agent === "architect" &&
          r.data?.note === "reminder" &&
          r.data.attempt === 1 &&
          r.data.limit === 2 &&
          r.data.owed === "submit_architecture",
      ),
    ).toHaveLength(1);
    const accepted = log(dir).find((r) => r.event === "delivered" && r.agent === "architect" && r.data?.reminder === 1);
    if (!accepted) console.error(log(dir).filter((r) => r.agent === "architect" || r.event === "watchdog"));
    expect(accepted?.data).toMatchObject({ of: 2, after_settled_ms: expect.any(Number) });
  }, 150_000);

  test("combined: two parallel coders forget their submit while the reviewer hits a usage limit (reset in 1 s)", async () => {
    const run = startDemo(bin, { scenario: "parallel,forget_submit=coder,rate_limit=reviewer_logic,limit_reset_s=1", thinkMs: 0, sockets });
    const { dir, state, stdout } = await succeeds(run);
    expect(state.phase).toBe("done");
    const coders = Object.entries(state.agents).filter(([k]) => k.startsWith("coder:"));
    expect(coders.length).toBe(2);
    for (const [, a] of coders) expect((a as any).idle_turns).toBe(1);
    expect(state.agents.reviewer_logic.limit).toMatchObject({ text: "[sim] usage limit reached · resets in 1s" });
    expect(
      log(dir).filter(
        (r) => r.event === "state_machine" && r.agent === "reviewer_logic" && r.data?.note === "usage_limit" && typeof r.data.reset_at === "string",
      ),
    ).toHaveLength(1);
    const limited = jsonEvents(stdout).filter((e) => e.kind === "agent_rate_limited");
    expect(limited.map((e) => e.agent)).toEqual(["reviewer_logic"]);
    expect(limited[0].limit.reset_at).toBeTruthy();
  }, 180_000);

  test("rate_limit=architect with a fallback provider: restarted on it with the same prompt, the run commits", async () => {
    const run = startDemo(bin, {
      scenario: "rate_limit=architect,limit_reset_s=600",
      thinkMs: 0,
      sockets,
      config: { providers: { sim2: SIM2 }, roles: { architect: { fallback: ["sim2"] } } },
    });
    const { dir, state, stdout } = await succeeds(run);
    expect(state.agents.architect).toMatchObject({ provider: "sim2", fallen_from: ["sim"] });
    expect(
      log(dir).filter((r) => r.event === "state_machine" && r.agent === "architect" && r.data?.note === "usage_limit" && r.data.fallback === "sim2"),
    ).toHaveLength(1);
    expect(jsonEvents(stdout).filter((e) => e.kind === "agent_fallback")).toMatchObject([{ agent: "architect", from: "sim", to: "sim2" }]);
  }, 150_000);

  test("ask=architect headless (questions = decide): told to decide, the question lands in assumptions.md, the run commits", async () => {
    const { dir, stdout } = await succeeds(startDemo(bin, { scenario: "ask=architect", thinkMs: 0, sockets }));
    const assumptions = readFileSync(join(dir, "assumptions.md"), "utf8");
    expect(assumptions).toContain("[architect] architecture asks: Should the greeting also support other languages, or English only?");
    const answered = jsonEvents(stdout).filter((e) => e.kind === "agent_question_answered");
    expect(answered).toMatchObject([
      { agent: "architect", question: { kind: "question", text: "Should the greeting also support other languages, or English only?" } },
    ]);
  }, 150_000);

  test("permission=coder headless: the dialog is dismissed (declined), the coder goes on, the run commits", async () => {
    const { dir } = await succeeds(startDemo(bin, { scenario: "permission=coder", thinkMs: 0, sockets }));
    expect(readFileSync(join(dir, "assumptions.md"), "utf8")).toMatch(/\[coder\] .* asks permission: .*\[sim\] permission: run `npm test`/);
    expect(log(dir).find((r) => r.event === "dialog_answered" && r.agent === "coder")?.data).toEqual({ keys: ["Escape"] });
  }, 150_000);

  test("crash_midway=coder: the relaunched coder is told what the interrupted attempt changed and does not redo it (#18.19)", async () => {
    const { dir, state } = await succeeds(startDemo(bin, { scenario: "crash_midway=coder", thinkMs: 0, sockets }));
    const prompt = readFileSync(join(dir, "06_implementation/coder_prompt_1.md"), "utf8");
    expect(prompt).toContain("## An earlier attempt at this task was interrupted");
    const file = /^- added: (\S+) \(owned by your sub-plan\)$/m.exec(prompt)?.[1];
    expect(file).toBeTruthy();
    expect(prompt).toContain(`+++ b/${file}`);
    const repo = join(dir, "../../..");
    const spawned = Bun.spawnSync(["git", "show", `${state.feature_branch}:${file}`], { cwd: repo });
    expect(spawned.stdout.toString()).not.toContain("change 1:"); // no second copy of the work
  }, 150_000);

  test("headless.questions = fail: the question fails the run (exit 1) with its text", async () => {
    const run = startDemo(bin, { scenario: "ask=planner", thinkMs: 0, sockets, config: { headless: { questions: "fail" } } });
    const r = await run.done;
    expect(r.code).toBe(1);
    expect(resultOf(r.stdout)).toMatchObject({ outcome: "failed", exit_code: 1 });
    expect(resultOf(r.stdout).cause).toBe(
      "the [planner] planning agent asks in a headless run (headless.questions = fail): Should the greeting also support other languages, or English only?",
    );
  }, 150_000);
});

describe("conversations and time across resumes", () => {
  test("after `agentmux resume` the coder continues its CLI conversation (same id, its earlier prompt kept) and its prompt says it was interrupted", async () => {
    const run = startDemo(bin, { scenario: "stall=coder", thinkMs: 0, sockets });
    const { dir, state } = await waitForState(run, "the stalled coder", (s) => s.agents?.coder?.status === "working" && !!s.agents?.coder?.conversation_id);
    const id = state.agents.coder.conversation_id;
    process.kill(orchestratorPid(dir)!, "SIGKILL");
    await run.done;
    const again = spawnBinary(bin, ["resume", basename(dir), "--ci", "--json"], { cwd: run.repo, socket: run.socket });
    await waitFor(
      "the coder relaunched in its conversation",
      () => log(dir).some((r) => r.event === "agent_launched" && r.agent === "coder" && r.data?.conversation === id && r.data?.resumed === true),
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    await waitForState(run, "the resumed coder at work", (s) => s.agents?.coder?.status === "working");
    expect(readState(dir).agents.coder.conversation_id).toBe(id);
    const turns = readFileSync(join(dir, `.runtime/sim/conversations/${id}.log`), "utf8")
      .trim()
      .split("\n");
    expect(turns.length).toBe(2);
    expect(readFileSync(join(dir, "06_implementation/coder_prompt_1.md"), "utf8")).toContain("An earlier attempt at this task was interrupted");
    writeFileSync(join(dir, ".runtime/cancel_request"), JSON.stringify({ at: new Date().toISOString(), by: "test" }));
    expect((await again.done).code).toBe(130);
    expect(fsckProblems(run.repo)).toBe("");
  }, 150_000);

  test("run_timeout_s counts the run's time across resumes (#17.10)", async () => {
    const run = startDemo(bin, { scenario: "stall=coder", thinkMs: 0, sockets, config: { watchdog: { stuck_after_s: 0, run_timeout_s: 12 } } });
    const { dir, state } = await waitForState(run, "the stalled coder", (s) => s.agents?.coder?.status === "working");
    // the orchestrator writes no state while the coder stalls: its heartbeat says how long it lived
    const since = Date.parse(state.active_since);
    await waitFor("2.5 s of heartbeats", () => (lastHeartbeat(dir) ?? 0) - since > 2500, { timeoutMs: 30_000, intervalMs: 50 });
    const pid = orchestratorPid(dir)!;
    process.kill(pid, "SIGKILL");
    await run.done;
    await waitFor("the orchestrator gone", () => !alive(pid), { timeoutMs: 10_000 });
    const r = await spawnBinary(bin, ["resume", basename(dir), "--ci", "--json"], { cwd: run.repo, socket: run.socket }).done;
    expect(r.code).toBe(1);
    const s = readState(dir);
    expect(s.interruption_cause).toBe("the run exceeded its time limit (watchdog.run_timeout_s = 12, counted across resumes)");
    expect(s.active_ms).toBeGreaterThan(2500);
    // the resumed orchestrator stopped once the two lifetimes together reached the limit
    const total = s.active_ms + (Date.parse(s.updated_at) - Date.parse(s.active_since));
    expect(total).toBeGreaterThanOrEqual(12_000);
    expect(total).toBeLessThan(13_500);
  }, 150_000);
});

test("a bad --scenario is refused up front (exit 2) naming the switches, and creates nothing (#17.8)", async () => {
  const dir = join(require("node:os").tmpdir(), `amx-bad-scenario-${process.pid}`);
  const r = await spawnBinary(bin, ["demo", "--ci", "--dir", dir, "--scenario", "bogus"], { socket: "amx-unused" }).done;
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('Unrecognized key: "bogus"');
  expect(r.stderr).toContain(`switches: ${SIM_SWITCHES.join(", ")}`);
  expect(r.stderr).toContain("forget_submit=<role>");
  expect(existsSync(dir)).toBe(false);
});
